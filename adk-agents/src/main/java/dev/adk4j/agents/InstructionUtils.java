package dev.adk4j.agents;

import dev.adk4j.internal.Json;
import dev.adk4j.state.ReadonlyState;
import dev.adk4j.state.State;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Single;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Fills state and artifact placeholders in agent instructions.
 *
 * <h2>Grammar</h2>
 *
 * A placeholder is {@code {name}} or {@code {name?}}; whitespace right inside the braces is ignored
 * ({@code { topic }} is {@code {topic}}), but the {@code ?} must follow the name directly. {@code
 * name} is one of:
 *
 * <ul>
 *   <li>a state key: an identifier {@code [A-Za-z_][A-Za-z0-9_]*} or identifiers joined by dots
 *       ({@code profile.theme}), optionally prefixed by {@code app:}, {@code user:}, {@code temp:}
 *       or {@code secret:};
 *   <li>{@code artifact.} followed by an artifact file name: an optional {@code user:} prefix, then
 *       one or more letters, digits, {@code _}, {@code -}, {@code .} or {@code /} ({@code
 *       {artifact.notes.txt}}, {@code {artifact.user:reports/q1.md}}). Names with other characters
 *       (spaces, colons, braces) cannot be referenced from a template.
 * </ul>
 *
 * Anything else between braces is not a placeholder and stays exactly as written: {@code {a-b}},
 * {@code {x:y}} ({@code x} is not a scope prefix), {@code {"json": 1}}, {@code {}}, {@code {a ?}},
 * unbalanced braces.
 *
 * <p><b>Doubled braces.</b> A <code>&#123;</code> immediately preceded by another <code>&#123;
 * </code>, or a <code>&#125;</code> immediately followed by another <code>&#125;</code>, never
 * delimits a placeholder. So <code>&#123;&#123;literal&#125;&#125;</code>, <code>
 * &#123;&#123;x&#125;</code> and <code>&#123;x&#125;&#125;</code> all stay as written (braces are
 * never unescaped). The rule looks only at the adjacent character: in <code>
 * &#123;&#123; &#123;x&#125; &#125;&#125;</code> the inner {@code {x}} is surrounded by spaces, so
 * it is a placeholder and the text renders as <code>&#123;&#123; value &#125;&#125;</code>.
 *
 * <h2>Resolution</h2>
 *
 * <ul>
 *   <li>A state name is first looked up as a whole key ({@code user:preferences.theme}). If the
 *       state has no such key and the name is dotted, it is read as a path into a map value, trying
 *       the longest key first: {@code {user:profile.address.city}} tries the keys {@code
 *       user:profile.address.city}, then {@code user:profile.address} with field {@code city}, then
 *       {@code user:profile} with fields {@code address} then {@code city}. Every step of a path
 *       must be a {@link Map} containing the field.
 *   <li>A string is inserted as it is, {@code null} (a map field holding null) as the empty string,
 *       any other value as compact JSON ({@link Json#writer()}): {@code {"a":1}}, {@code [1,2]},
 *       {@code 42}, {@code true}.
 *   <li>{@code {artifact.name}} inserts the text of the latest version of the session's artifact
 *       ({@link ReadonlyContext#loadArtifact}); an artifact with no text (binary data) is an error,
 *       and so is a name that {@link dev.adk4j.internal.artifacts.ArtifactNames} refuses ({@code
 *       {artifact.../x}}), with or without {@code ?}.
 *   <li>A {@code secret:} key is inserted only if the running agent is an {@link LlmAgent} built
 *       with {@link LlmAgent.Builder#secretsInInstructions(boolean) secretsInInstructions(true)};
 *       otherwise the returned {@link Single} fails with an {@link IllegalArgumentException} naming
 *       the key and the agent, with or without {@code ?}.
 *   <li>Inserted text is never scanned again: a value containing {@code {user:secret}} is inserted
 *       verbatim.
 *   <li>A missing key or artifact renders as the empty string with {@code ?}; without it the
 *       returned {@link Single} fails with an {@link IllegalArgumentException} naming the key (or
 *       artifact) and the agent.
 * </ul>
 *
 * <p>The template is scanned once, left to right, in time linear in its length. Thread-safe and
 * stateless.
 */
public final class InstructionUtils {

  static final String ARTIFACT_PREFIX = "artifact.";

  private InstructionUtils() {}

  /**
   * Fills {@code {name}} and {@code {name?}} placeholders in {@code template} from the live state
   * and the artifacts of {@code context}, following the grammar in the class comment.
   *
   * <p>Lazy: the state is read and artifacts are loaded when the result is subscribed to.
   *
   * @return the filled template; fails with {@link IllegalArgumentException} if a placeholder
   *     without {@code ?} names a key or artifact that does not exist, or an artifact that has no
   *     text
   * @throws NullPointerException if an argument is null
   */
  public static Single<String> injectSessionState(ReadonlyContext context, String template) {
    Objects.requireNonNull(context, "context");
    Objects.requireNonNull(template, "template");
    return Single.defer(() -> render(context, template));
  }

  /**
   * The same as {@link #injectSessionState(ReadonlyContext, String)} over a read-only context of
   * {@code context}: ADK for Java's signature, for code that holds an {@link InvocationContext}.
   *
   * @throws NullPointerException if an argument is null
   */
  public static Single<String> injectSessionState(InvocationContext context, String template) {
    Objects.requireNonNull(context, "context");
    return injectSessionState(new ReadonlyContext(context), template);
  }

  /** An artifact placeholder, to be spliced in at {@code offset} of the rendered state text. */
  private record ArtifactRef(int offset, String name, boolean optional) {}

  private static Single<String> render(ReadonlyContext context, String template) {
    if (template.indexOf('{') < 0) {
      return Single.just(template);
    }
    ReadonlyState state = context.state();
    StringBuilder out = new StringBuilder(template.length() + 64);
    List<ArtifactRef> artifacts = new ArrayList<>(0);
    int n = template.length();
    int i = 0;
    while (i < n) {
      int open = template.indexOf('{', i);
      if (open < 0) {
        out.append(template, i, n);
        break;
      }
      out.append(template, i, open);
      // Find the brace that ends this candidate: the next '{' or '}'.
      int close = open + 1;
      while (close < n && template.charAt(close) != '{' && template.charAt(close) != '}') {
        close++;
      }
      boolean delimited =
          close < n
              && template.charAt(close) == '}'
              && (open == 0 || template.charAt(open - 1) != '{')
              && (close + 1 == n || template.charAt(close + 1) != '}');
      Placeholder p = delimited ? Placeholder.parse(template, open + 1, close) : null;
      if (p == null) {
        // Not a placeholder: copy up to (not including) the next brace, which is examined next.
        // A '}' is copied too, since it can never open a placeholder.
        int end = close < n && template.charAt(close) == '}' ? close + 1 : close;
        out.append(template, open, end);
        i = end;
        continue;
      }
      if (p.artifact) {
        artifacts.add(new ArtifactRef(out.length(), p.name, p.optional));
      } else {
        out.append(resolveState(context, state, p));
      }
      i = close + 1;
    }
    if (artifacts.isEmpty()) {
      return Single.just(out.toString());
    }
    String rendered = out.toString();
    return Flowable.fromIterable(artifacts)
        .concatMapSingle(ref -> loadArtifactText(context, ref))
        .toList()
        .map(
            texts -> {
              StringBuilder result = new StringBuilder(rendered.length() + 256);
              int from = 0;
              for (int k = 0; k < artifacts.size(); k++) {
                int at = artifacts.get(k).offset();
                result.append(rendered, from, at).append(texts.get(k));
                from = at;
              }
              return result.append(rendered, from, rendered.length()).toString();
            });
  }

  private static String resolveState(ReadonlyContext context, ReadonlyState state, Placeholder p) {
    String key = p.name;
    if (key.startsWith(State.SECRET_PREFIX)
        && !(context.invocationContext().agent() instanceof LlmAgent agent
            && agent.secretsInInstructions())) {
      throw new IllegalArgumentException(
          "Instruction of agent '"
              + context.agentName()
              + "' refers to secret key '"
              + key
              + "', which would send the secret to the model; allow it with"
              + " LlmAgent.builder().secretsInInstructions(true), or read the secret in a tool");
    }
    if (state.containsKey(key)) {
      return format(state.get(key));
    }
    // Dotted name: the longest existing key prefix whose value contains the rest as a map path.
    int dot = key.lastIndexOf('.');
    while (dot > 0) {
      String prefix = key.substring(0, dot);
      if (state.containsKey(prefix)) {
        Object[] found = walk(state.get(prefix), key, dot + 1);
        if (found != null) {
          return format(found[0]);
        }
      }
      dot = key.lastIndexOf('.', dot - 1);
    }
    if (p.optional) {
      return "";
    }
    throw new IllegalArgumentException(
        "Instruction of agent '"
            + context.agentName()
            + "' refers to state key '"
            + key
            + "', which is not in the state of session '"
            + context.sessionId()
            + "'; write {"
            + key
            + "?} to make it optional");
  }

  /**
   * Follows the dot-separated fields of {@code path} from {@code from} into {@code value}.
   *
   * @return a one-element array holding the value found (possibly null), or null if the path does
   *     not exist
   */
  private static Object @Nullable [] walk(@Nullable Object value, String path, int from) {
    Object current = value;
    int start = from;
    while (true) {
      if (!(current instanceof Map<?, ?> map)) {
        return null;
      }
      int dot = path.indexOf('.', start);
      String field = dot < 0 ? path.substring(start) : path.substring(start, dot);
      if (!map.containsKey(field)) {
        return null;
      }
      current = map.get(field);
      if (dot < 0) {
        return new Object[] {current};
      }
      start = dot + 1;
    }
  }

  private static String format(@Nullable Object value) {
    if (value == null) {
      return "";
    }
    if (value instanceof String s) {
      return s;
    }
    return Json.toJson(value);
  }

  private static Single<String> loadArtifactText(ReadonlyContext context, ArtifactRef ref) {
    return context
        .loadArtifact(ref.name(), Optional.empty())
        .map(
            part ->
                part.text()
                    .orElseThrow(
                        () ->
                            new IllegalArgumentException(
                                "Instruction of agent '"
                                    + context.agentName()
                                    + "' refers to artifact '"
                                    + ref.name()
                                    + "', which has no text")))
        .switchIfEmpty(
            Single.fromCallable(
                () -> {
                  if (ref.optional()) {
                    return "";
                  }
                  throw new IllegalArgumentException(
                      "Instruction of agent '"
                          + context.agentName()
                          + "' refers to artifact '"
                          + ref.name()
                          + "', which does not exist in session '"
                          + context.sessionId()
                          + "'; write {artifact."
                          + ref.name()
                          + "?} to make it optional");
                }));
  }
}
