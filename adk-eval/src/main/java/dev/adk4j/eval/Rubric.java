package dev.adk4j.eval;

import java.util.Objects;

/**
 * One rubric of ADK's rubric-based metrics: an id and the property a judge model checks ({@code
 * rubric_id} and {@code rubric_content.text_property} in ADK's JSON).
 *
 * @param id the rubric's id, unique within its case
 * @param text the property, such as "The answer names the city"
 */
public record Rubric(String id, String text) {
  public Rubric {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(text, "text");
  }
}
