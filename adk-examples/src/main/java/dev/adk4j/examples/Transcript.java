package dev.adk4j.examples;

import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.events.Event;
import dev.adk4j.events.ToolConfirmation;
import dev.adk4j.internal.Json;
import dev.adk4j.sessions.Session;
import dev.adk4j.state.Scope;
import dev.adk4j.state.State;
import java.io.PrintStream;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Prints what happens in a way a person can follow: each event with its author, its text or
 * function call/response and its state delta, and a session's state grouped by scope.
 */
public final class Transcript {
  private final PrintStream out;

  public Transcript(PrintStream out) {
    this.out = out;
  }

  public PrintStream out() {
    return out;
  }

  /** A heading for a step. */
  public void step(String title) {
    out.println("-- " + title);
  }

  /** A free line of narration. */
  public void say(String line) {
    out.println("   " + line);
  }

  /** One event. */
  public void event(Event e) {
    String author = e.author() == null ? "?" : e.author();
    boolean printed = false;
    for (Part p : e.content().flatMap(c -> c.parts()).orElse(List.of())) {
      if (p.thought().orElse(false)) {
        continue;
      }
      if (p.text().isPresent()) {
        out.println("   [" + author + "] " + oneLine(p.text().get()));
        printed = true;
      } else if (p.functionCall().isPresent()
          && ToolConfirmation.REQUEST_FUNCTION_NAME.equals(
              p.functionCall().get().name().orElse(""))) {
        // A confirmation request: the call it is about and the hint, not its generated ids.
        Map<String, Object> args = p.functionCall().get().args().orElse(Map.of());
        Object call = args.get("originalFunctionCall");
        Object asking = args.get("toolConfirmation");
        out.println(
            "   ["
                + author
                + "] asks a person to confirm "
                + (call instanceof Map<?, ?> m ? m.get("name") + Json.toJson(m.get("args")) : "?")
                + ": "
                + (asking instanceof Map<?, ?> m ? m.get("hint") : ""));
        printed = true;
      } else if (p.functionCall().isPresent()) {
        FunctionCall c = p.functionCall().get();
        out.println(
            "   ["
                + author
                + "] calls "
                + c.name().orElse("?")
                + Json.toJson(c.args().orElse(Map.of())));
        printed = true;
      } else if (p.functionResponse().isPresent()) {
        FunctionResponse r = p.functionResponse().get();
        out.println(
            "   ["
                + author
                + "] "
                + r.name().orElse("?")
                + " returned "
                + Json.toJson(r.response().orElse(Map.of())));
        printed = true;
      }
    }
    if (!printed) {
      out.println("   [" + author + "] (no content)");
    }
    Map<String, Object> delta = e.actions().stateDelta();
    if (!delta.isEmpty()) {
      out.println("      stateDelta " + Json.toJson(new TreeMap<>(State.redacted(delta))));
    }
  }

  /** A session's state, grouped by scope. */
  public void state(String label, Session session) {
    state(label, session.state());
  }

  /** A state map, grouped by scope. */
  public void state(String label, Map<String, Object> state) {
    Map<Scope, Map<String, Object>> byScope = new EnumMap<>(Scope.class);
    state.forEach((k, v) -> byScope.computeIfAbsent(Scope.of(k), s -> new TreeMap<>()).put(k, v));
    out.println("   " + label + ":");
    if (state.isEmpty()) {
      out.println("      (empty)");
    }
    for (Scope scope : List.of(Scope.APP, Scope.USER, Scope.SESSION, Scope.SECRET, Scope.TEMP)) {
      Map<String, Object> keys = byScope.get(scope);
      if (keys != null) {
        out.println(
            "      "
                + String.format("%-9s", scope.name().toLowerCase() + ":")
                + Json.toJson(State.redacted(keys)));
      }
    }
  }

  private static String oneLine(String text) {
    String t = text.strip().replace("\n", " / ");
    return t.length() > 300 ? t.substring(0, 297) + "..." : t;
  }
}
