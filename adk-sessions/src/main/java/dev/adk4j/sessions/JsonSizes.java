package dev.adk4j.sessions;

import com.google.genai.types.Blob;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.events.EventCompaction;
import dev.adk4j.internal.Json;
import dev.adk4j.internal.Text;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Upper bounds of the UTF-8 JSON size of values and events, computed without writing JSON, so that
 * {@link SessionLimits} writes a value or an event only when it may be over its limit (writing
 * every event would double the cost of an in-memory append).
 *
 * <p>Strings are counted exactly (Jackson's escapes included); numbers by their longest form; a
 * part, function call or blob with fields not counted here, or a value of a type not listed, is
 * written to measure it. Every field of {@link Event}, {@link EventActions} and {@link
 * EventCompaction} that is written to JSON must be counted in {@link #eventAtMost}.
 */
final class JsonSizes {
  private JsonSizes() {}

  /** The names, punctuation, timestamp and flags of an event and its actions. */
  private static final long EVENT_FRAME = 1024;

  /** The names and punctuation of a content, a part, a call or a blob. */
  private static final long FRAME = 128;

  static long valueAtMost(@Nullable Object v) {
    if (v == null) {
      return 4;
    }
    if (v instanceof String) {
      return stringAtMost((String) v);
    }
    if (v instanceof Boolean) {
      return 5;
    }
    if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
      return 20;
    }
    if (v instanceof Double || v instanceof Float) {
      return 26;
    }
    if (v instanceof BigInteger) {
      return ((BigInteger) v).bitLength() / 3 + 3;
    }
    if (v instanceof Map) {
      long n = 2;
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        n += stringAtMost(String.valueOf(e.getKey())) + 2 + valueAtMost(e.getValue());
      }
      return n;
    }
    if (v instanceof List) {
      long n = 2;
      for (Object o : (List<?>) v) {
        n += 1 + valueAtMost(o);
      }
      return n;
    }
    return written(v);
  }

  /**
   * An upper bound of a string's size as a JSON string in UTF-8: {@code 6} bytes a character (the
   * longest escape) unless the string is long enough for that to matter, then exact.
   */
  static long stringAtMost(@Nullable String s) {
    if (s == null) {
      return 4;
    }
    return s.length() <= SHORT ? 6L * s.length() + 2 : stringSize(s);
  }

  /** Strings up to this length are bounded at 6 bytes a character without being scanned. */
  private static final int SHORT = 256;

  /** The size of a string as a JSON string in UTF-8: exact, a lone surrogate counted as 3. */
  static long stringSize(String s) {
    long n = 2;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20) {
        n += (c == '\n' || c == '\t' || c == '\r' || c == '\b' || c == '\f') ? 2 : 6;
      } else if (c == '"' || c == '\\') {
        n += 2;
      } else if (c < 0x80) {
        n += 1;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }

  static long eventAtMost(Event e) {
    return eventAtMost(e, valueAtMost(e.actions().stateDelta()));
  }

  /**
   * {@link #eventAtMost(Event)} given {@code deltaAtMost}, the {@link #valueAtMost} of the event's
   * state delta (computed once by a caller that also bounds each value).
   */
  static long eventAtMost(Event e, long deltaAtMost) {
    EventActions a = e.actions();
    long n = EVENT_FRAME;
    n += stringAtMost(e.id()) + stringAtMost(e.invocationId()) + stringAtMost(e.author());
    n += optional(e.branch()) + optional(e.errorCode()) + optional(e.errorMessage());
    n += contentAtMost(e.content().orElse(null));
    if (e.usageMetadata().isPresent()) {
      n += FRAME + stringAtMost(e.usageMetadata().get().toJson());
    }
    n += deltaAtMost;
    for (String name : a.artifactDelta().keySet()) {
      n += stringAtMost(name) + 13;
    }
    n += optional(a.transferToAgent()) + optional(a.route());
    if (e.output().isPresent()) {
      n += valueAtMost(e.output().get());
    }
    if (e.nodeInfo().isPresent()) {
      n += stringAtMost(e.nodeInfo().get().path()) + stringAtMost(e.nodeInfo().get().runId());
    }
    if (a.compaction().isPresent()) {
      n += FRAME + contentAtMost(a.compaction().get().compactedContent());
    }
    n += adkFieldsAtMost(e);
    return n;
  }

  /**
   * ADK for Java's event and action fields (finish reason, grounding, citations, transcriptions,
   * custom metadata, model version; auth requests, deleted artifacts): most events have none; the
   * google-genai values among them are written to measure them.
   */
  private static long adkFieldsAtMost(Event e) {
    long n = 0;
    if (e.finishReason().isPresent()) {
      n += stringAtMost(e.finishReason().get().toString());
    }
    n += optional(e.modelVersion());
    if (e.groundingMetadata().isPresent()) {
      n += written(e.groundingMetadata().get());
    }
    if (e.citationMetadata().isPresent()) {
      n += written(e.citationMetadata().get());
    }
    if (e.inputTranscription().isPresent()) {
      n += written(e.inputTranscription().get());
    }
    if (e.outputTranscription().isPresent()) {
      n += written(e.outputTranscription().get());
    }
    if (e.customMetadata().isPresent()) {
      n += written(e.customMetadata().get());
    }
    EventActions a = e.actions();
    if (!a.requestedAuthConfigs().isEmpty()) {
      n += valueAtMost(a.requestedAuthConfigs());
    }
    for (String id : a.deletedArtifactIds()) {
      n += stringAtMost(id) + 1;
    }
    if (e.avgLogprobs().isPresent()) {
      n += 26;
    }
    if (n > 0 || e.interrupted().isPresent() || a.endInvocation().isPresent() || a.endOfAgent()) {
      n += ADK_FIELD_NAMES;
    }
    return n;
  }

  /** The names and punctuation of every field {@link #adkFieldsAtMost} counts, and its flags. */
  private static final long ADK_FIELD_NAMES = 512;

  private static long optional(Optional<String> s) {
    return s.isPresent() ? stringAtMost(s.get()) : 0;
  }

  private static long contentAtMost(@Nullable Content c) {
    if (c == null) {
      return 0;
    }
    long n = FRAME + optional(c.role());
    for (Part p : c.parts().orElse(List.of())) {
      n += 1 + partAtMost(p);
    }
    return n;
  }

  // Each *AtMost below counts some fields of a google-genai type; a value with any other field
  // set is written to measure it. The other fields are named here (no builder per check: this
  // runs on every append), and JsonSizesTest fails when google-genai adds a field that is in
  // neither list.

  private static long partAtMost(Part p) {
    if (p.mediaResolution().isPresent()
        || p.codeExecutionResult().isPresent()
        || p.executableCode().isPresent()
        || p.fileData().isPresent()
        || p.videoMetadata().isPresent()
        || p.toolCall().isPresent()
        || p.toolResponse().isPresent()
        || p.partMetadata().isPresent()
        || p.audioTranscription().isPresent()
        || p.mediaProcessing().isPresent()) {
      return written(p);
    }
    long n = FRAME + optional(p.text());
    // thought: a boolean, within FRAME.
    n += p.thoughtSignature().map(JsonSizes::base64).orElse(0L);
    n += p.inlineData().map(JsonSizes::blobAtMost).orElse(0L);
    n += p.functionCall().map(JsonSizes::callAtMost).orElse(0L);
    n += p.functionResponse().map(JsonSizes::responseAtMost).orElse(0L);
    return n;
  }

  private static long blobAtMost(Blob b) {
    return FRAME
        + b.data().map(JsonSizes::base64).orElse(0L)
        + optional(b.mimeType())
        + optional(b.displayName());
  }

  private static long callAtMost(FunctionCall c) {
    if (c.partialArgs().isPresent() || c.willContinue().isPresent()) {
      return written(c);
    }
    return FRAME + optional(c.id()) + optional(c.name()) + valueAtMost(c.args().orElse(null));
  }

  private static long responseAtMost(FunctionResponse r) {
    if (r.willContinue().isPresent() || r.scheduling().isPresent() || r.parts().isPresent()) {
      return written(r);
    }
    return FRAME + optional(r.id()) + optional(r.name()) + valueAtMost(r.response().orElse(null));
  }

  /** The getters of each type that the bounds above count; every other one is written. */
  static final Map<Class<?>, List<String>> COUNTED =
      Map.of(
          Part.class,
          List.of(
              "text",
              "thought",
              "thoughtSignature",
              "inlineData",
              "functionCall",
              "functionResponse"),
          Blob.class,
          List.of("data", "mimeType", "displayName"),
          FunctionCall.class,
          List.of("id", "name", "args"),
          FunctionResponse.class,
          List.of("id", "name", "response"));

  /** The getters of each type whose presence sends the value to be written. */
  static final Map<Class<?>, List<String>> WRITTEN =
      Map.of(
          Part.class,
          List.of(
              "mediaResolution",
              "codeExecutionResult",
              "executableCode",
              "fileData",
              "videoMetadata",
              "toolCall",
              "toolResponse",
              "partMetadata",
              "audioTranscription",
              "mediaProcessing"),
          Blob.class,
          List.of(),
          FunctionCall.class,
          List.of("partialArgs", "willContinue"),
          FunctionResponse.class,
          List.of("willContinue", "scheduling", "parts"));

  /** A base64 string of {@code bytes}, with its quotes. */
  private static long base64(byte[] bytes) {
    return 4L * ((bytes.length + 2) / 3) + 2;
  }

  private static long written(Object v) {
    return Text.utf8Length(Json.toJson(v));
  }
}
