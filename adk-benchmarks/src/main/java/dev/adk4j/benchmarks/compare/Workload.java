package dev.adk4j.benchmarks.compare;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The inputs every comparison gives both implementations, as plain strings and numbers: the
 * adapters turn them into each side's own types, so the benchmark bodies see neither.
 */
public final class Workload {
  private Workload() {}

  /** The two sides of every comparison ({@code @Param impl}). */
  public static final String ADK4J = "adk4j";

  public static final String ADK_JAVA = "adk-java";

  public static final String APP = "bench_app";
  public static final String USER = "bench_user";

  // --- The standard event: a short model text and a delta of one key per scope. ---

  public static final String AUTHOR = "bench_agent";
  public static final String INVOCATION = "bench-invocation";
  public static final String EVENT_TEXT = "The forecast for Paris is sunny, 24 degrees.";

  /** Session-scoped key of the standard event's delta; its value is the event's number. */
  public static final String SESSION_KEY = "step";

  public static final String USER_KEY = "user:last_city";
  public static final String USER_VALUE = "Paris";
  public static final String APP_KEY = "app:forecasts";
  public static final String APP_VALUE = "enabled";

  /** Events per session in the append benchmarks, before a fresh session takes over. */
  public static final int EVENTS_PER_SESSION = 100;

  // --- History of the turn benchmarks: question and answer text events. ---

  public static String question(int i) {
    return "question " + i;
  }

  public static String answer(int i) {
    return "answer " + i;
  }

  // --- Templating: ten placeholders, four of them app: or user: keys. ---

  public static final String TEMPLATE =
      "You are {a}, the assistant of {user:b}. Speak {c}. The service is {app:d}; today is {e}."
          + " The user lives in {user:f} and prefers {g}. Policy {app:h} applies. Be {i}, and {j}.";

  /** The state the template reads, in the order of the placeholders. */
  public static Map<String, String> templateState() {
    Map<String, String> state = new LinkedHashMap<>();
    state.put("a", "Bench");
    state.put("user:b", "Ada");
    state.put("c", "briefly");
    state.put("app:d", "online");
    state.put("e", "Monday");
    state.put("user:f", "Paris");
    state.put("g", "metric units");
    state.put("app:h", "P-7");
    state.put("i", "precise");
    state.put("j", "polite");
    return state;
  }

  /** What both implementations must render from {@link #TEMPLATE} and {@link #templateState}. */
  public static String expectedRendering() {
    String out = TEMPLATE;
    for (Map.Entry<String, String> e : templateState().entrySet()) {
      out = out.replace("{" + e.getKey() + "}", e.getValue());
    }
    return out;
  }

  // --- One Runner turn: user message, a function call, the tool, the final answer. ---

  public static final String AGENT = "weather_agent";
  public static final String INSTRUCTION = "Answer questions about the weather.";
  public static final String USER_MESSAGE = "What is the weather in Paris?";

  /** The scripted model's function call: {@code set_city(city = "Paris")}. */
  public static final String TOOL = "set_city";

  public static final String TOOL_ARG = "city";
  public static final String TOOL_ARG_VALUE = "Paris";

  /** The session key the tool writes (the argument's value). */
  public static final String TOOL_STATE_KEY = "city";

  /** The scripted model's final answer, stored by the agent's output key. */
  public static final String FINAL_ANSWER = "It is sunny in Paris, 24 degrees.";

  public static final String OUTPUT_KEY = "answer";

  /** Events one turn stores: user message, function call, function response, final answer. */
  public static final int EVENTS_PER_TURN = 4;
}
