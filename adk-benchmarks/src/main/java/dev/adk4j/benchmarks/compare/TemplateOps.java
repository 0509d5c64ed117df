package dev.adk4j.benchmarks.compare;

/**
 * Instruction templating on one implementation: a session whose merged state holds {@link
 * Workload#templateState()} (written by appending an event with that delta, so that {@code app:}
 * and {@code user:} keys land in their scopes), read back with {@code getSession}, and the
 * invocation context that instructions are rendered against. Built once; {@link #render} is the
 * measured operation.
 */
public interface TemplateOps {

  static TemplateOps create(String impl) {
    switch (impl) {
      case Workload.ADK4J:
        return new Adk4jTemplates();
      case Workload.ADK_JAVA:
        return new AdkJavaTemplates();
      default:
        throw new IllegalArgumentException("unknown implementation " + impl);
    }
  }

  /** {@code InstructionUtils.injectSessionState(context, template)}, awaited. */
  String render(String template);
}
