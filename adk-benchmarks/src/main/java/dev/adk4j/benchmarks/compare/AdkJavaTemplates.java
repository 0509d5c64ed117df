package dev.adk4j.benchmarks.compare;

import com.google.adk.agents.InvocationContext;
import com.google.adk.agents.LlmAgent;
import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.sessions.InMemorySessionService;
import com.google.adk.sessions.Session;
import com.google.adk.utils.InstructionUtils;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** {@link TemplateOps} with Google ADK's {@code com.google.adk.utils.InstructionUtils}. */
final class AdkJavaTemplates implements TemplateOps {

  private final InvocationContext context;

  AdkJavaTemplates() {
    InMemorySessionService service = new InMemorySessionService();
    Session created =
        service
            .createSession(Workload.APP, Workload.USER, (Map<String, Object>) null, "template")
            .blockingGet();
    service
        .appendEvent(
            created,
            Event.builder()
                .id(Event.generateEventId())
                .author(Workload.AUTHOR)
                .actions(
                    EventActions.builder()
                        .stateDelta(new HashMap<String, Object>(Workload.templateState()))
                        .build())
                .build())
        .blockingGet();
    Session session =
        service.getSession(Workload.APP, Workload.USER, "template", Optional.empty()).blockingGet();
    LlmAgent agent =
        LlmAgent.builder()
            .name(Workload.AGENT)
            .model(new AdkJavaTurns.ScriptedModel())
            .instruction(Workload.TEMPLATE)
            .build();
    // What ADK's instruction processor passes: the invocation context.
    context =
        InvocationContext.builder()
            .invocationId(InvocationContext.newInvocationContextId())
            .sessionService(service)
            .agent(agent)
            .session(session)
            .build();
  }

  @Override
  public String render(String template) {
    return InstructionUtils.injectSessionState(context, template).blockingGet();
  }
}
