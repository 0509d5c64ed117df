package dev.adk4j.models;

import io.reactivex.rxjava3.core.Flowable;

/** Placeholder until the Gemini client lands (being built on its own branch). */
public final class Gemini extends BaseLlm {
  private Gemini(String model) {
    super(model);
  }

  public static Gemini create(String modelName) {
    return new Gemini(modelName);
  }

  @Override
  public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
    return Flowable.error(new UnsupportedOperationException("Gemini is not available yet"));
  }
}
