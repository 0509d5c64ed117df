package dev.adk4j.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.adk4j.internal.RetryAfter;
import io.reactivex.rxjava3.core.Flowable;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

  static LlmException status(int code, Duration retryAfter) {
    return new LlmException("m", code, "m answered " + code, retryAfter, null);
  }

  /** A call that fails with {@code failures} in order, then answers "ok". */
  static Flowable<String> call(AtomicInteger calls, List<Throwable> failures) {
    return Flowable.defer(
        () -> {
          int n = calls.getAndIncrement();
          return n < failures.size() ? Flowable.error(failures.get(n)) : Flowable.just("ok");
        });
  }

  @Test
  void rateLimitAndOverload_areRetried_otherStatusesAreNot() {
    RetryPolicy p = RetryPolicy.of(3, Duration.ofMillis(1), Duration.ofMillis(5));
    AtomicInteger calls = new AtomicInteger();

    assertThat(
            p.apply(call(calls, List.of(status(429, null), status(503, null), status(529, null))))
                .blockingLast())
        .isEqualTo("ok");
    assertThat(calls).hasValue(4);

    for (int code : new int[] {400, 401, 404, 500}) {
      AtomicInteger once = new AtomicInteger();
      assertThatThrownBy(() -> p.apply(call(once, List.of(status(code, null)))).blockingLast())
          .hasMessageContaining("answered " + code);
      assertThat(once).as("calls after HTTP " + code).hasValue(1);
    }
  }

  @Test
  void retries_stopAtTheLimit_withTheLastError() {
    AtomicInteger calls = new AtomicInteger();
    RetryPolicy p = RetryPolicy.of(1, Duration.ofMillis(1), Duration.ofMillis(1));

    assertThatThrownBy(
            () ->
                p.apply(call(calls, List.of(status(429, null), status(503, null)))).blockingLast())
        .hasMessageContaining("answered 503");
    assertThat(calls).hasValue(2);
  }

  @Test
  void aFailureAfterTheFirstItem_isNotRetried() {
    AtomicInteger calls = new AtomicInteger();
    Flowable<String> partialThenFail =
        Flowable.defer(
            () -> {
              calls.incrementAndGet();
              return Flowable.just("partial").concatWith(Flowable.error(status(503, null)));
            });

    assertThatThrownBy(() -> RetryPolicy.defaults().apply(partialThenFail).toList().blockingGet())
        .isInstanceOf(LlmException.class);
    assertThat(calls).hasValue(1);
  }

  @Test
  void delay_isRetryAfter_whenGiven_cappedByMaxBackoff_elseExponential() {
    RetryPolicy p = RetryPolicy.of(5, Duration.ofMillis(100), Duration.ofSeconds(2));
    assertThat(p.delay(0, status(429, Duration.ofMillis(1500)))).isEqualTo(Duration.ofMillis(1500));
    assertThat(p.delay(0, status(429, Duration.ofSeconds(90)))).isEqualTo(Duration.ofSeconds(2));
    assertThat(p.delay(0, status(429, null)))
        .isBetween(Duration.ofMillis(80), Duration.ofMillis(120));
    assertThat(p.delay(2, status(429, null)))
        .isBetween(Duration.ofMillis(320), Duration.ofMillis(480));
    assertThat(p.delay(10, status(429, null))).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void badSettings_areRefused() {
    assertThatThrownBy(() -> RetryPolicy.of(-1, Duration.ZERO, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxRetries");
    assertThatThrownBy(() -> RetryPolicy.of(1, Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("initialBackoff");
  }

  @Test
  void retryAfterHeaders_secondsMillisecondsAndDates() {
    Instant now = Instant.parse("2026-01-01T00:00:00Z");
    assertThat(RetryAfter.parse(null, "2", now)).isEqualTo(Duration.ofSeconds(2));
    assertThat(RetryAfter.parse("250", "2", now)).isEqualTo(Duration.ofMillis(250));
    assertThat(RetryAfter.parse(null, "Thu, 01 Jan 2026 00:00:05 GMT", now))
        .isEqualTo(Duration.ofSeconds(5));
    assertThat(RetryAfter.parse(null, "Wed, 31 Dec 2025 23:00:00 GMT", now))
        .isEqualTo(Duration.ZERO);
    assertThat(RetryAfter.parse(null, "soon", now)).isNull();
    assertThat(RetryAfter.parse(null, null, now)).isNull();
    assertThat(RetryAfter.parse("x", "-3", now)).isNull();
  }

  @Test
  void registry_namesTheMissingModule_andTheKnownSchemes() {
    assertThatThrownBy(
            () -> LlmRegistry.create("openai/gpt-4o-mini", Map.<String, String>of()::get))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("dev.adk4j:adk-models-openai");
    assertThatThrownBy(() -> LlmRegistry.create("ollama/llama3.2", Map.<String, String>of()::get))
        .hasMessageContaining("dev.adk4j:adk-models-openai");
    assertThatThrownBy(() -> LlmRegistry.create("mystery/m", Map.<String, String>of()::get))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'mystery/m'")
        .hasMessageContaining("gemini");
    assertThatThrownBy(() -> LlmRegistry.create("openai/", Map.<String, String>of()::get))
        .hasMessageContaining("no model after");
  }

  @Test
  void registry_geminiScheme_readsTheGivenEnvironment() {
    assertThatThrownBy(
            () -> LlmRegistry.create("gemini/gemini-2.5-flash", Map.<String, String>of()::get))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("GOOGLE_API_KEY");
    BaseLlm m = LlmRegistry.create("gemini/gemini-2.5-flash", Map.of("GEMINI_API_KEY", "k")::get);
    assertThat(m).isInstanceOf(Gemini.class);
    assertThat(m.model()).isEqualTo("gemini-2.5-flash");
    ((Gemini) m).close();
  }
}
