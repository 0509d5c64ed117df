package dev.adk4j.benchmarks.compare;

import dev.adk4j.agents.InstructionUtils;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.ReadonlyContext;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.sessions.InMemorySessionService;
import dev.adk4j.sessions.Session;

/** {@link TemplateOps} with {@code dev.adk4j.agents.InstructionUtils}. */
final class Adk4jTemplates implements TemplateOps {

  private final ReadonlyContext context;

  Adk4jTemplates() {
    InMemorySessionService service = new InMemorySessionService();
    Session created =
        service.createSession(Workload.APP, Workload.USER, null, "template").blockingGet();
    service
        .appendEvent(
            created,
            Event.builder()
                .author(Workload.AUTHOR)
                .actions(EventActions.builder().stateDelta(Workload.templateState()).build())
                .build())
        .blockingGet();
    Session session = service.getSession(Workload.APP, Workload.USER, "template").blockingGet();
    LlmAgent agent =
        LlmAgent.builder()
            .name(Workload.AGENT)
            .model(new Adk4jTurns.ScriptedModel())
            .instruction(Workload.TEMPLATE)
            .build();
    // What an instruction provider receives: a read-only context of the invocation.
    context =
        new ReadonlyContext(
            InvocationContext.builder()
                .sessionService(service)
                .agent(agent)
                .session(session)
                .build());
  }

  @Override
  public String render(String template) {
    return InstructionUtils.injectSessionState(context, template).blockingGet();
  }
}
