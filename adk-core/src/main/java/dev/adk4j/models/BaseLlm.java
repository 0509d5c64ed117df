package dev.adk4j.models;

import io.reactivex.rxjava3.core.Flowable;
import java.util.Objects;

/**
 * A language model. Implementations turn an {@link LlmRequest} into one or more {@link
 * LlmResponse}s: one complete response when not streaming, or partial chunks followed by a final
 * aggregated response when streaming.
 *
 * <p>Implementations are thread-safe; {@link #generateContent} is lazy.
 */
public abstract class BaseLlm {
  private final String model;

  protected BaseLlm(String model) {
    this.model = Objects.requireNonNull(model, "model");
  }

  /** The model name, such as {@code gemini-2.5-flash}. */
  public String model() {
    return model;
  }

  /**
   * Generates content for {@code request}.
   *
   * @param stream whether to stream: if true, emit responses marked {@code partial} as text
   *     arrives, then a final non-partial response with the whole content
   */
  public abstract Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream);

  /**
   * Whether subscribing to {@link #generateContent}'s flow may block the subscribing thread (a
   * blocking HTTP call made on subscription, as most clients make). True unless a model overrides
   * it.
   *
   * <p>The agents call a model that answers {@code false} on the turn's own thread, with no thread
   * hand-off: its flow must never block its subscriber (it answers at once, or later from a thread
   * of its own), so that {@code RunConfig.llmCallTimeout} can be enforced by the waiting turn. A
   * model that answers {@code true} is subscribed to on a model-call thread, so that a call that
   * hangs can be abandoned at its deadline. Streamed calls always get that thread.
   */
  public boolean blocksSubscriber() {
    return true;
  }

  /**
   * Opens a live (bidirectional) connection for {@code request}'s instructions, tools and config
   * (its contents are not sent: the caller sends them with {@link BaseLlmConnection#sendHistory}).
   * Models that have no live API, which is all but {@link Gemini} among adk4j's, do not override
   * it.
   *
   * @throws UnsupportedOperationException naming the model, if it has no live API
   */
  public BaseLlmConnection connect(LlmRequest request) {
    throw new UnsupportedOperationException(
        "Model '" + model + "' (" + getClass().getSimpleName() + ") has no live connection");
  }
}
