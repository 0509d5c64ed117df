package dev.adk4j.agents;

import io.reactivex.rxjava3.core.Single;

/** Fills state placeholders in instructions. (Placeholder: the full grammar lands next.) */
public final class InstructionUtils {
  private InstructionUtils() {}

  /** Fills {@code {key}} and {@code {key?}} placeholders in {@code template} from the state. */
  public static Single<String> injectSessionState(ReadonlyContext context, String template) {
    return Single.just(template);
  }
}
