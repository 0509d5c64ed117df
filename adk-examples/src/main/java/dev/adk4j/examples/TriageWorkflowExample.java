package dev.adk4j.examples;

import dev.adk4j.agents.LlmAgent;
import dev.adk4j.agents.RunConfig;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.workflows.Node;
import dev.adk4j.workflows.Workflow;
import java.util.Map;
import java.util.TreeMap;

/**
 * A triage workflow (issue 30, see {@code docs/workflows.md}): a classifier routes a ticket to the
 * billing or the tech agent while a sentiment node runs beside it; a join gathers the branches that
 * ran and a summary node writes the result. The transcript shows the state the nodes wrote (the
 * workflow's own records aside) and the nodes that ran.
 */
public final class TriageWorkflowExample {
  private TriageWorkflowExample() {}

  static Workflow triage() {
    Node classify =
        Node.classifier(
            "classify",
            (ctx, in) -> String.valueOf(in).toLowerCase().contains("invoice") ? "billing" : "tech");
    LlmAgent billing =
        LlmAgent.builder()
            .name("billing")
            .model(ExampleModels.model(r -> "Refund issued for the duplicate charge."))
            .instruction("Resolve the billing question in one sentence.")
            .outputKey("resolution")
            .build();
    LlmAgent tech =
        LlmAgent.builder()
            .name("tech")
            .model(ExampleModels.model(r -> "Restart the router, then sign in again."))
            .instruction("Resolve the technical question in one sentence.")
            .outputKey("resolution")
            .build();
    Node sentiment =
        Node.function(
            "sentiment",
            String.class,
            String.class,
            (ctx, in) -> {
              String mood = in.contains("!") ? "upset" : "calm";
              ctx.state().put("mood", mood);
              return mood;
            });
    Node gather = Node.join("gather");
    Node summary =
        Node.function(
            "summary",
            Map.class,
            String.class,
            (ctx, in) -> {
              String text =
                  "branches " + new TreeMap<>(in).keySet() + "; " + ctx.state().get("resolution");
              ctx.state().put("summary", text);
              return text;
            });
    return Workflow.builder()
        .name("triage")
        .description("classifier -> billing or tech, with sentiment beside -> join -> summary")
        .nodes(classify, Node.agent(billing), Node.agent(tech), sentiment, gather, summary)
        .edge(Workflow.START, "classify")
        .edge(Workflow.START, "sentiment")
        .edge("classify", "billing", "billing")
        .edge("classify", "tech", "tech")
        .edge("billing", "gather")
        .edge("tech", "gather")
        .edge("sentiment", "gather")
        .edge("gather", "summary")
        .build();
  }

  static void run(BaseSessionService sessions, Transcript t) {
    Runner runner = new Runner(triage(), "triage_app", null, sessions);
    ExampleSupport.freshSession(sessions, "triage_app", "user9", "ticket", null);
    t.step("A ticket about an invoice: classify routes it to billing; sentiment runs beside it");
    String ticket = "My invoice shows the same charge twice!";
    t.say("[user] " + ticket);
    runner
        .runAsync(
            "user9", "ticket", ExampleSupport.userMessage(ticket), RunConfig.builder().build())
        .blockingSubscribe();
    Session after = ExampleSupport.load(sessions, "triage_app", "user9", "ticket");
    Map<String, Object> written = new TreeMap<>(after.state());
    written.keySet().removeIf(k -> k.startsWith(Workflow.RECORD_PREFIX));
    t.state("State the nodes wrote", written);
    @SuppressWarnings("unchecked")
    Map<String, Object> run =
        (Map<String, Object>)
            java.util.Objects.requireNonNull(after.state().get("adk_workflow:triage"));
    t.say("run " + run.get("status") + ", output: " + run.get("output"));
    // Each node's completion event carries ADK 2.0's node fields: nodeInfo (path, run), output
    // and, for the classifier, actions.route. Sorted by path: concurrent nodes finish in any order.
    Map<String, String> completions = new TreeMap<>();
    for (dev.adk4j.events.Event e : after.events()) {
      e.nodeInfo()
          .filter(n -> e.output().isPresent() && !n.path().equals("triage"))
          .ifPresent(
              n ->
                  completions.put(
                      n.path(),
                      "output "
                          + e.output().get()
                          + e.actions().route().map(r -> ", route " + r).orElse("")));
    }
    completions.forEach((path, what) -> t.say("node " + path + ": " + what));
  }
}
