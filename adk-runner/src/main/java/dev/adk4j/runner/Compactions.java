package dev.adk4j.runner;

import dev.adk4j.agents.BaseAgent;
import dev.adk4j.agents.InvocationContext;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventActions;
import dev.adk4j.events.EventCompaction;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.sessions.ListEventsRequest;
import dev.adk4j.sessions.ListEventsResponse;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs event compaction at the end of an invocation, when it is due. */
final class Compactions {
  private static final Logger log = LoggerFactory.getLogger(Compactions.class);

  /** The author of compaction events, as in Google's ADK. */
  static final String AUTHOR = "user";

  private Compactions() {}

  /**
   * Appends a compaction event to {@code ctx}'s session if {@link
   * EventsCompactionConfig#compactionInterval()} invocations have run since the latest one. A
   * summarizer that fails is logged and the compaction skipped: the next invocation tries again.
   */
  static void compactIfDue(InvocationContext ctx, BaseAgent agent, EventsCompactionConfig config) {
    List<Event> events = ctx.session().events();
    int latest = -1;
    for (int i = events.size() - 1; i >= 0; i--) {
      if (events.get(i).actions().compaction().isPresent()) {
        latest = i;
        break;
      }
    }
    Set<String> since = invocations(events, latest + 1, events.size());
    if (since.size() < config.compactionInterval()) {
      return;
    }
    int from = latest + 1;
    List<Event> input = new ArrayList<>();
    if (latest >= 0 && config.overlapSize() > 0) {
      from = overlapStart(events, latest, config.overlapSize());
      if (invocations(events, from, latest).size() < config.overlapSize()
          && ctx.session().revision() > events.size()) {
        // The turn loaded the session from its latest compaction on: read the overlap back.
        input.addAll(storedBefore(ctx, events.get(latest), config.overlapSize()));
      }
    }
    for (Event e : events.subList(from, events.size())) {
      if (e.actions().compaction().isEmpty() && !e.partial().orElse(false)) {
        input.add(e);
      }
    }
    EventCompaction previous =
        latest >= 0 ? events.get(latest).actions().compaction().orElseThrow() : null;
    try {
      EventSummarizer summarizer =
          config.summarizer().orElseGet(() -> new LlmEventSummarizer(modelOf(agent)));
      EventCompaction summary = summarizer.summarize(previous, input).blockingGet();
      if (summary == null) {
        return;
      }
      ctx.persist(
          ctx.newEvent(AUTHOR).actions(EventActions.builder().compaction(summary).build()).build());
      log.debug(
          "Compacted {} invocation(s) of session '{}' ({} events summarized)",
          since.size(),
          ctx.session().id(),
          input.size());
    } catch (RuntimeException e) {
      log.warn(
          "Could not compact the events of session '{}' of user '{}' in app '{}'; the next"
              + " invocation will try again: {}",
          ctx.session().id(),
          ctx.userId(),
          ctx.appName(),
          e.toString());
    }
  }

  /**
   * The events of the last {@code overlap} invocations stored before {@code compaction}, oldest
   * first, read newest first in pages: the reads stop once they are found.
   */
  static List<Event> storedBefore(InvocationContext ctx, Event compaction, int overlap) {
    List<Event> found = new ArrayList<>();
    Set<String> ids = new LinkedHashSet<>();
    boolean before = false;
    String token = null;
    do {
      ListEventsResponse page =
          ctx.sessionService()
              .listEvents(
                  ctx.appName(),
                  ctx.userId(),
                  ctx.session().id(),
                  ListEventsRequest.builder()
                      .newestFirst(true)
                      .pageSize(100)
                      .pageToken(token)
                      .build())
              .blockingGet();
      for (Event e : page.events()) {
        if (!before) {
          before = e.id().equals(compaction.id());
          continue;
        }
        if (e.actions().compaction().isPresent() || e.invocationId() == null) {
          continue;
        }
        if (!ids.contains(e.invocationId())) {
          if (ids.size() == overlap) {
            java.util.Collections.reverse(found);
            return found;
          }
          ids.add(e.invocationId());
        }
        found.add(e);
      }
      token = page.nextPageToken().orElse(null);
    } while (token != null);
    java.util.Collections.reverse(found);
    return found;
  }

  /** The ids of the invocations of {@code events[from, to)}, in order. */
  private static Set<String> invocations(List<Event> events, int from, int to) {
    Set<String> ids = new LinkedHashSet<>();
    for (Event e : events.subList(from, to)) {
      if (e.invocationId() != null && e.actions().compaction().isEmpty()) {
        ids.add(e.invocationId());
      }
    }
    return ids;
  }

  /** The index of the first event of the last {@code overlap} invocations before {@code end}. */
  static int overlapStart(List<Event> events, int end, int overlap) {
    Set<String> seen = new LinkedHashSet<>();
    int start = end;
    for (int i = end - 1; i >= 0; i--) {
      String id = events.get(i).invocationId();
      if (events.get(i).actions().compaction().isPresent() || id == null) {
        continue;
      }
      if (!seen.contains(id)) {
        if (seen.size() == overlap) {
          break;
        }
        seen.add(id);
      }
      start = i;
    }
    return start;
  }

  /** The model of the agent tree's first LLM agent, depth first. */
  private static BaseLlm modelOf(BaseAgent agent) {
    BaseLlm model = findModel(agent);
    if (model == null) {
      throw new IllegalStateException(
          "No LlmAgent under '"
              + agent.name()
              + "' to summarize with; give the config a summarizer");
    }
    return model;
  }

  private static @Nullable BaseLlm findModel(BaseAgent agent) {
    if (agent instanceof LlmAgent) {
      return ((LlmAgent) agent).resolvedModel();
    }
    for (BaseAgent sub : agent.subAgents()) {
      BaseLlm m = findModel(sub);
      if (m != null) {
        return m;
      }
    }
    return null;
  }
}
