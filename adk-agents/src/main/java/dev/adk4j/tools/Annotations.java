package dev.adk4j.tools;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Annotations that describe {@link FunctionTool}s to the model. */
public final class Annotations {
  private Annotations() {}

  /**
   * Describes a tool method, one of its parameters, or a property of a record or class used as a
   * parameter type.
   *
   * <ul>
   *   <li>On a method: {@link #name()} is the tool's name (default: the method's name) and {@link
   *       #description()} its description (default: none). {@link #optional()} is ignored.
   *   <li>On a parameter: {@link #name()} is the argument's name (default: the Java parameter name,
   *       available when compiled with {@code -parameters}), {@link #description()} its
   *       description, and {@link #optional()} whether the model may leave it out. An optional
   *       argument that is absent is passed as {@code null}, {@code Optional.empty()} or, for a
   *       primitive, its zero value.
   *   <li>On a record component or field of a parameter's type: {@link #description()} and {@link
   *       #optional()} are used; the property's name is the one Jackson uses (rename it with
   *       {@code @JsonProperty}), so a non-empty {@link #name()} there is rejected when the tool is
   *       created.
   * </ul>
   */
  @Documented
  @Retention(RetentionPolicy.RUNTIME)
  @Target({
    ElementType.METHOD,
    ElementType.PARAMETER,
    ElementType.FIELD,
    ElementType.RECORD_COMPONENT
  })
  public @interface Schema {
    /** The tool's or argument's name; empty means the Java name. */
    String name() default "";

    /** What the tool or argument is for, as the model reads it; empty means none. */
    String description() default "";

    /** Whether the argument or property may be left out by the model. */
    boolean optional() default false;
  }
}
