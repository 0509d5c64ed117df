package dev.adk4j.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.genai.types.Part;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One test per rule of the instruction templating grammar (ARCHITECTURE.md). */
class InstructionUtilsTest {

  private static final String AGENT = "helper_agent";

  private TestInvocation invocation = TestInvocation.of(AGENT, Map.of());

  private TestInvocation withState(Map<String, Object> state) {
    invocation = TestInvocation.of(AGENT, state);
    return invocation;
  }

  private String render(String template) {
    return InstructionUtils.injectSessionState(invocation.readonlyContext(), template)
        .blockingGet();
  }

  private String render(Map<String, Object> state, String template) {
    withState(state);
    return render(template);
  }

  @Test
  void inject_userSessionAndUserKeys_fullyRendered() {
    String out =
        render(
            Map.of("user:name", "Ada", "topic", "state machines", "user:language", "Java"),
            "You are helping {user:name} with {topic}. Their preferred language is"
                + " {user:language}.");

    assertThat(out)
        .isEqualTo("You are helping Ada with state machines. Their preferred language is Java.");
  }

  @Test
  void inject_spacesInsideBraces_areTrimmed() {
    assertThat(render(Map.of("topic", "sessions"), "About { topic }."))
        .isEqualTo("About sessions.");
  }

  @Test
  void inject_optionalMissingKey_rendersEmpty() {
    assertThat(render(Map.of(), "Topic: [{topic?}]")).isEqualTo("Topic: []");
  }

  @Test
  void inject_optionalPresentKey_rendersValue() {
    assertThat(render(Map.of("topic", "x"), "[{ topic? }]")).isEqualTo("[x]");
  }

  @Test
  void inject_missingKey_failsNamingKeyAndAgent() {
    assertThatThrownBy(() -> render(Map.of(), "Hello {missing}!"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'missing'")
        .hasMessageContaining("'" + AGENT + "'");
  }

  @Test
  void inject_missingKey_failsThroughTheSingleNotAtCall() {
    var single = InstructionUtils.injectSessionState(invocation.readonlyContext(), "{missing}");

    single.test().assertError(IllegalArgumentException.class);
  }

  @Test
  void inject_invalidNames_stayAsWritten() {
    String template = "{invalid-key} {a-b} {x:y} {\"a\": 1} {\"json\": 1} {} {  } {1abc} {a..b}";

    assertThat(render(Map.of("a", 1, "x", 2, "y", 3), template)).isEqualTo(template);
  }

  @Test
  void inject_unbalancedBraces_stayAsWritten() {
    String template = "open { never closed, close } alone, {topic and { topic }";

    assertThat(render(Map.of("topic", "T"), template))
        .isEqualTo("open { never closed, close } alone, {topic and T");
  }

  @Test
  void inject_doubledBraces_areNeverSubstituted() {
    Map<String, Object> state = Map.of("literal", "NO", "x", "NO");

    assertThat(render(state, "{{literal}} {{x} {x}} {{{x}}}"))
        .isEqualTo("{{literal}} {{x} {x}} {{{x}}}");
  }

  @Test
  void inject_doubledBracesAroundSpacedPlaceholder_innerIsSubstituted() {
    assertThat(render(Map.of("x", "v"), "{{ {x} }}")).isEqualTo("{{ v }}");
  }

  @Test
  void inject_literalBracesNextToPlaceholder() {
    assertThat(
            render(
                Map.of("adjective", "cool"),
                "This is a {adjective} instruction with {{literal_braces}}."))
        .isEqualTo("This is a cool instruction with {{literal_braces}}.");
  }

  @Test
  void inject_insertedText_isNotScannedAgain() {
    Map<String, Object> state =
        Map.of("note", "call {user:secret} and {{x}}", "user:secret", "s3cr3t");

    assertThat(render(state, "Note: {note}")).isEqualTo("Note: call {user:secret} and {{x}}");
  }

  @Test
  void inject_stringValue_insertedAsIs() {
    assertThat(render(Map.of("s", "  \"quoted\" \n text "), "[{s}]"))
        .isEqualTo("[  \"quoted\" \n text ]");
  }

  @Test
  void inject_mapValue_asCompactJson() {
    Map<String, Object> prefs = new LinkedHashMap<>();
    prefs.put("theme", "dark");
    prefs.put("size", 12);

    assertThat(render(Map.of("prefs", prefs), "{prefs}"))
        .isEqualTo("{\"theme\":\"dark\",\"size\":12}");
  }

  @Test
  void inject_listValue_asCompactJson() {
    assertThat(render(Map.of("items", List.of("a", 1, true)), "{items}"))
        .isEqualTo("[\"a\",1,true]");
  }

  @Test
  void inject_numberValues_asJson() {
    assertThat(render(Map.of("n", 42, "d", 2.5, "big", 12345678901L), "{n} {d} {big}"))
        .isEqualTo("42 2.5 12345678901");
  }

  @Test
  void inject_booleanValue_asJson() {
    assertThat(render(Map.of("flag", true), "{flag}")).isEqualTo("true");
  }

  @Test
  void inject_nullValue_rendersEmpty() {
    Map<String, Object> profile = new HashMap<>();
    profile.put("nickname", null);

    assertThat(render(Map.of("user:profile", profile), "[{user:profile.nickname}]"))
        .isEqualTo("[]");
  }

  @Test
  void inject_dottedName_wholeKeyFirst() {
    Map<String, Object> state =
        Map.of("user:preferences.theme", "whole", "user:preferences", Map.of("theme", "path"));

    assertThat(render(state, "{user:preferences.theme}")).isEqualTo("whole");
  }

  @Test
  void inject_dottedName_thenPathIntoMap() {
    Map<String, Object> state =
        Map.of(
            "user:profile",
            Map.of("name", "Ada", "address", Map.of("city", "London")),
            "settings",
            Map.of("ui", Map.of("theme", "dark")));

    assertThat(
            render(
                state, "{user:profile.name} in {user:profile.address.city}, {settings.ui.theme}"))
        .isEqualTo("Ada in London, dark");
  }

  @Test
  void inject_dottedName_longestKeyPrefixWins() {
    Map<String, Object> state =
        Map.of("a.b", Map.of("c", "from a.b"), "a", Map.of("b", Map.of("c", "from a")));

    assertThat(render(state, "{a.b.c}")).isEqualTo("from a.b");
  }

  @Test
  void inject_dottedName_pathMissing_failsOrEmptyWithQuestionMark() {
    withState(Map.of("user:profile", Map.of("name", "Ada"), "scalar", "text"));

    assertThatThrownBy(() -> render("{user:profile.age}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'user:profile.age'");
    assertThat(render("[{user:profile.age?}][{scalar.length?}]")).isEqualTo("[][]");
  }

  @Test
  void inject_tempPrefix_readsInvocationState() {
    CallbackContext callback = new CallbackContext(invocation.context());
    callback.state().put("temp:step", "draft");

    assertThat(render("Step: {temp:step}")).isEqualTo("Step: draft");
  }

  @Test
  void inject_appPrefix_readsAppState() {
    assertThat(render(Map.of("app:version", "1.2"), "v{app:version}")).isEqualTo("v1.2");
  }

  @Test
  void inject_artifact_insertsItsText() {
    invocation.saveTextArtifact("notes.txt", "remember {topic}");
    invocation.saveTextArtifact("user:reports/q1-final.md", "Q1");

    assertThat(render("Notes: {artifact.notes.txt}; {artifact.user:reports/q1-final.md}"))
        .isEqualTo("Notes: remember {topic}; Q1");
  }

  @Test
  void inject_artifact_latestVersion_interleavedWithState() {
    withState(Map.of("a", "A", "b", "B"));
    invocation.saveTextArtifact("x", "old");
    invocation.saveTextArtifact("x", "new");

    assertThat(render("{a}{artifact.x}{b}{artifact.x}.")).isEqualTo("AnewBnew.");
  }

  @Test
  void inject_missingArtifact_failsNamingArtifactAndAgent() {
    assertThatThrownBy(() -> render("{artifact.absent.txt}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'absent.txt'")
        .hasMessageContaining("'" + AGENT + "'");
  }

  @Test
  void inject_artifactNameThatLeavesItsSession_fails_evenWhenOptional() {
    for (String template : List.of("{artifact.../secret}", "{artifact.user:../../x?}")) {
      assertThatThrownBy(() -> render(template))
          .as(template)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("Invalid artifact name")
          .hasMessageContaining("'..' path segment")
          .hasMessageContaining("'" + AGENT + "'");
    }
    CallbackContext callback = new CallbackContext(invocation.context());
    assertThatThrownBy(() -> callback.saveArtifact("a/./b", Part.fromText("x")).blockingGet())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'a/./b'");
  }

  @Test
  void inject_missingOptionalArtifact_rendersEmpty() {
    assertThat(render("[{artifact.absent.txt?}]")).isEqualTo("[]");
  }

  @Test
  void inject_binaryArtifact_fails() {
    invocation.saveBinaryArtifact("logo.png", new byte[] {1, 2, 3});

    assertThatThrownBy(() -> render("{artifact.logo.png}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'logo.png'")
        .hasMessageContaining("no text");
  }

  @Test
  void inject_templateWithoutPlaceholders_unchanged() {
    assertThat(render("plain text } with a stray brace"))
        .isEqualTo("plain text } with a stray brace");
  }

  @Test
  void inject_readsLiveState_atSubscription() {
    var single = InstructionUtils.injectSessionState(invocation.readonlyContext(), "{late}");
    new CallbackContext(invocation.context()).state().put("late", "now");

    assertThat(single.blockingGet()).isEqualTo("now");
  }

  @Test
  void inject_longPathologicalInput_isLinear() {
    int n = 200_000;
    char[] opens = new char[n];
    Arrays.fill(opens, '{');
    String manyOpens = new String(opens);
    String alternating = "{a".repeat(n);
    String unclosed = "{" + "a".repeat(n);
    withState(Map.of("a", "x"));

    long start = System.nanoTime();
    assertThat(render(manyOpens)).isEqualTo(manyOpens);
    assertThat(render(alternating)).isEqualTo(alternating);
    assertThat(render(unclosed)).isEqualTo(unclosed);
    assertThat(render("{a}".repeat(n))).isEqualTo("x".repeat(n));
    assertThat(System.nanoTime() - start).isLessThan(5_000_000_000L);
  }
}
