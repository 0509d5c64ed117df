package dev.adk4j.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import dev.adk4j.agents.TestInvocation;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Single;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/** Calling a {@link FunctionTool}: argument binding, context injection, results and errors. */
class FunctionToolTest {

  private final TestInvocation invocation = TestInvocation.of("tool_agent", Map.of());
  private final ToolContext toolContext = new ToolContext(invocation.context(), "call-1");

  enum Priority {
    LOW,
    HIGH
  }

  record Task(String title, Priority priority, List<String> tags) {}

  record Summary(String title, int count) {}

  /** An instance tool whose methods record what they were called with. */
  static class Recorder {
    final List<Object> calls = new java.util.ArrayList<>();

    public String echo(String text, int times) {
      calls.add(List.of(text, times));
      return text.repeat(times);
    }

    public Map<String, Object> addTask(Task task) {
      calls.add(task);
      return Map.of("title", task.title(), "priority", task.priority(), "tags", task.tags());
    }

    public int countActions(
        ToolContext anyName, @Annotations.Schema(name = "op") String operation) {
      int count = (int) anyName.state().getOrDefault("user_action_count", 0) + 1;
      anyName.state().put("user_action_count", count);
      anyName.state().put("temp:last_operation_status", operation + ": success");
      return count;
    }

    public String optionals(
        String required,
        @Annotations.Schema(optional = true) String text,
        @Annotations.Schema(optional = true) int number,
        @Annotations.Schema(optional = true) boolean flag,
        Optional<Integer> maybe) {
      return required + "|" + text + "|" + number + "|" + flag + "|" + maybe;
    }

    public void nothing() {
      calls.add("nothing");
    }

    public String fails(String reason) {
      throw new IllegalStateException("cannot do it: " + reason);
    }

    public Object returns(String kind) {
      switch (kind) {
        case "null":
          return null;
        case "list":
          return List.of(1, "two", Map.of("three", 3));
        case "number":
          return 42;
        case "boolean":
          return true;
        case "record":
          return new Summary("report", 3);
        case "not json":
          return new Object();
        case "map":
          Map<Integer, Object> map = new LinkedHashMap<>();
          map.put(1, new Summary("nested", 1));
          return map;
        default:
          return "text";
      }
    }

    public Single<Summary> singleSummary(String title) {
      return Single.just(new Summary(title, title.length()));
    }

    public Single<String> singleFails() {
      return Single.error(new IllegalArgumentException("bad input"));
    }

    public Maybe<String> maybe(boolean present) {
      return present ? Maybe.just("here") : Maybe.empty();
    }

    public Completable completable() {
      return Completable.complete();
    }

    public CompletionStage<Integer> future(int x) {
      return CompletableFuture.completedFuture(x * 2);
    }

    public long sum(List<Integer> values) {
      return values.stream().mapToLong(Integer::longValue).sum();
    }

    public String overloaded(String a) {
      return a;
    }

    public String overloaded(int a) {
      return "" + a;
    }

    public static String shout(String text) {
      return text.toUpperCase(java.util.Locale.ROOT);
    }
  }

  private final Recorder recorder = new Recorder();

  private Map<String, Object> call(String method, Map<String, Object> args) {
    return FunctionTool.create(recorder, method).runAsync(args, toolContext).blockingGet();
  }

  @Test
  void runAsync_convertsArgumentsAndWrapsPlainResult() {
    assertThat(call("echo", Map.of("text", "ab", "times", 3)))
        .containsExactly(entry("result", "ababab"));
    assertThat(recorder.calls).containsExactly(List.of("ab", 3));
  }

  @Test
  void runAsync_integralFloatingNumber_readsAsInteger() {
    assertThat(call("echo", Map.of("text", "x", "times", 2.0))).containsEntry("result", "xx");
  }

  @Test
  void runAsync_nestedRecordArgument_convertedWithJackson() {
    Map<String, Object> task =
        Map.of("title", "write tests", "priority", "HIGH", "tags", List.of("a", "b"));

    Map<String, Object> response = call("addTask", Map.of("task", task));

    assertThat(recorder.calls)
        .containsExactly(new Task("write tests", Priority.HIGH, List.of("a", "b")));
    assertThat(response)
        .containsOnly(
            entry("title", "write tests"),
            entry("priority", "HIGH"),
            entry("tags", List.of("a", "b")));
  }

  @Test
  void runAsync_toolContext_injectedByType_writesLandInDeltaAndLiveState() {
    Map<String, Object> response = call("countActions", Map.of("op", "save"));

    assertThat(response).containsExactly(entry("result", 1));
    assertThat(toolContext.actions().stateDelta())
        .containsEntry("user_action_count", 1)
        .containsEntry("temp:last_operation_status", "save: success");
    // the invocation's live state (the session copy holds stored state only, up to its last
    // append: these writes are not appended yet)
    assertThat(toolContext.state())
        .containsEntry("user_action_count", 1)
        .containsEntry("temp:last_operation_status", "save: success");
    assertThat(invocation.session().state()).doesNotContainKey("user_action_count");

    call("countActions", Map.of("op", "again"));

    assertThat(toolContext.actions().stateDelta()).containsEntry("user_action_count", 2);
    assertThat(toolContext.state()).containsEntry("user_action_count", 2);
  }

  @Test
  void runAsync_optionalArgumentsAbsent_nullDefaultsAndEmpty() {
    assertThat(call("optionals", Map.of("required", "r")))
        .containsEntry("result", "r|null|0|false|Optional.empty");
  }

  @Test
  void runAsync_optionalArgumentsPresent_converted() {
    Map<String, Object> args =
        Map.of("required", "r", "text", "t", "number", 7, "flag", true, "maybe", 5);

    assertThat(call("optionals", args)).containsEntry("result", "r|t|7|true|Optional[5]");
  }

  @Test
  void runAsync_missingRequiredArgument_isErrorResponse() {
    Map<String, Object> response = call("echo", Map.of("text", "ab"));

    assertThat(response).containsOnlyKeys("error");
    assertThat((String) response.get("error"))
        .contains("'echo'")
        .contains("'times'")
        .contains("required");
    assertThat(recorder.calls).isEmpty();
  }

  @Test
  void runAsync_nullForRequiredArgument_isErrorResponse() {
    Map<String, Object> args = new HashMap<>();
    args.put("text", null);
    args.put("times", 1);

    assertThat((String) call("echo", args).get("error")).contains("'text'");
  }

  @Test
  void runAsync_wronglyTypedArgument_isErrorResponse() {
    Map<String, Object> response = call("echo", Map.of("text", "ab", "times", "many"));

    assertThat(response).containsOnlyKeys("error");
    assertThat((String) response.get("error"))
        .contains("'echo'")
        .contains("'times'")
        .contains("\"many\"");
    assertThat(recorder.calls).isEmpty();
  }

  @Test
  void runAsync_fractionForInteger_isErrorResponseNotTruncated() {
    Map<String, Object> response = call("echo", Map.of("text", "ab", "times", 2.5));

    assertThat((String) response.get("error")).contains("'times'").contains("2.5");
    assertThat(recorder.calls).isEmpty();
  }

  @Test
  void runAsync_wronglyTypedNestedValue_isErrorResponse() {
    Map<String, Object> task = Map.of("title", "t", "priority", "URGENT", "tags", List.of());

    Map<String, Object> response = call("addTask", Map.of("task", task));

    assertThat((String) response.get("error")).contains("'addTask'").contains("'task'");
  }

  @Test
  void runAsync_wronglyTypedListElement_isErrorResponse() {
    Map<String, Object> response = call("sum", Map.of("values", List.of(1, "x")));

    assertThat((String) response.get("error")).contains("'values'");
  }

  @Test
  void runAsync_unknownArguments_areIgnored() {
    assertThat(call("sum", Map.of("values", List.of(1, 2), "extra", "x")))
        .containsEntry("result", 3);
  }

  @Test
  void runAsync_exceptionFromMethod_isErrorResponse() {
    Map<String, Object> response = call("fails", Map.of("reason", "disk full"));

    assertThat(response).containsOnlyKeys("error");
    assertThat((String) response.get("error"))
        .contains("'fails'")
        .contains("IllegalStateException")
        .contains("cannot do it: disk full");
  }

  @Test
  void runAsync_errorFromReturnedSingle_isErrorResponse() {
    assertThat((String) call("singleFails", Map.of()).get("error"))
        .contains("'singleFails'")
        .contains("bad input");
  }

  @Test
  void runAsync_returnValues_mappedToResponses() {
    assertThat(call("returns", Map.of("kind", "text"))).containsExactly(entry("result", "text"));
    assertThat(call("returns", Map.of("kind", "number"))).containsExactly(entry("result", 42));
    assertThat(call("returns", Map.of("kind", "boolean"))).containsExactly(entry("result", true));
    assertThat(call("returns", Map.of("kind", "list")))
        .containsExactly(entry("result", List.of(1, "two", Map.of("three", 3))));
    assertThat(call("returns", Map.of("kind", "null"))).isEmpty(); // {} as in ADK
    assertThat(call("returns", Map.of("kind", "record")))
        .containsExactly(entry("title", "report"), entry("count", 3));
    assertThat(call("returns", Map.of("kind", "map")))
        .containsExactly(entry("1", Map.of("title", "nested", "count", 1)));
  }

  @Test
  void runAsync_resultThatIsNotJson_isErrorResponse() {
    assertThat((String) call("returns", Map.of("kind", "not json")).get("error"))
        .contains("'returns'")
        .contains("cannot be converted to JSON");
  }

  @Test
  void runAsync_nullArguments_meanNone() {
    assertThat((String) call("echo", null).get("error")).contains("'text'");
  }

  @Test
  void runAsync_voidMethod_resultIsEmptyObject_asInAdk() {
    assertThat(call("nothing", null)).isEmpty();
    assertThat(recorder.calls).containsExactly("nothing");
  }

  @Test
  void runAsync_singleResult_isUnwrapped() {
    assertThat(call("singleSummary", Map.of("title", "abc")))
        .containsExactly(entry("title", "abc"), entry("count", 3));
  }

  @Test
  void runAsync_maybeCompletableAndFutureResults_areUnwrapped() {
    assertThat(call("maybe", Map.of("present", true))).containsExactly(entry("result", "here"));
    assertThat(call("maybe", Map.of("present", false))).isEmpty();
    assertThat(call("completable", Map.of())).isEmpty();
    assertThat(call("future", Map.of("x", 21))).containsExactly(entry("result", 42));
  }

  @Test
  void runAsync_isLazy() {
    Single<Map<String, Object>> pending =
        FunctionTool.create(recorder, "nothing").runAsync(Map.of(), toolContext);

    assertThat(recorder.calls).isEmpty();
    pending.blockingGet();
    assertThat(recorder.calls).containsExactly("nothing");
  }

  @Test
  void create_staticMethodViaClass() {
    FunctionTool tool = FunctionTool.create(Recorder.class, "shout");

    assertThat(tool.runAsync(Map.of("text", "hi"), toolContext).blockingGet())
        .containsExactly(entry("result", "HI"));
  }

  @Test
  void create_staticMethodViaInstanceOrMethod() throws Exception {
    Method shout = Recorder.class.getMethod("shout", String.class);

    assertThat(
            FunctionTool.create(recorder, "shout")
                .runAsync(Map.of("text", "a"), toolContext)
                .blockingGet())
        .containsEntry("result", "A");
    assertThat(FunctionTool.create(shout).runAsync(Map.of("text", "b"), toolContext).blockingGet())
        .containsEntry("result", "B");
  }

  @Test
  void create_instanceMethodViaMethod() throws Exception {
    Method echo = Recorder.class.getMethod("echo", String.class, int.class);

    FunctionTool tool = FunctionTool.create(recorder, echo);

    assertThat(tool.runAsync(Map.of("text", "z", "times", 2), toolContext).blockingGet())
        .containsEntry("result", "zz");
  }

  @Test
  void create_missingMethod_isRefused() {
    assertThatThrownBy(() -> FunctionTool.create(recorder, "absent"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'absent'")
        .hasMessageContaining(Recorder.class.getName());
  }

  @Test
  void create_overloadedMethod_isRefusedAsAmbiguous() {
    assertThatThrownBy(() -> FunctionTool.create(recorder, "overloaded"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2 methods named 'overloaded'");
  }

  @Test
  void create_instanceMethodWithoutInstance_isRefused() throws Exception {
    assertThatThrownBy(() -> FunctionTool.create(Recorder.class, "echo"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("instance method");
    Method echo = Recorder.class.getMethod("echo", String.class, int.class);
    assertThatThrownBy(() -> FunctionTool.create(echo))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("instance method");
  }

  @Test
  void create_instanceOfWrongClass_isRefused() throws Exception {
    Method echo = Recorder.class.getMethod("echo", String.class, int.class);

    assertThatThrownBy(() -> FunctionTool.create("not a recorder", echo))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("java.lang.String");
  }

  @Test
  void toString_namesTheTool() {
    assertThat(FunctionTool.create(recorder, "echo")).hasToString("FunctionTool{echo}");
  }
}
