package dev.adk4j.agents;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.events.Event;
import dev.adk4j.events.EventCompaction;
import dev.adk4j.internal.AppendOnlyList;
import dev.adk4j.internal.Json;
import dev.adk4j.sessions.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** Builds the conversation an agent sends to its model from the session's events. */
final class Histories {
  private Histories() {}

  /**
   * The contents for {@code agentName}: the user's messages and the agent's own turns as they are,
   * other agents' turns retold as user-role context, restricted to events of the agent's branch
   * (events on no branch, on its branch, or on an ancestor of it).
   *
   * <p>History is cut three ways. The latest compaction event stands in for everything up to its
   * end: its summary comes first, then only the events after it. With {@link
   * LlmAgent.IncludeContents#NONE} only the current invocation's events are used; with a history
   * window of N, only the events of the last N invocations before the current one, and the current
   * one.
   *
   * <p>Once an invocation paused on a long-running call, two more rules apply: the model sees only
   * the latest response to each call (a status stored when the call was made gives way to the
   * result the client sent), and never the confirmation requests and their answers ({@code
   * adk_request_confirmation}), only the response of the confirmed call.
   */
  static List<Content> contentsFor(
      InvocationContext ctx,
      String agentName,
      LlmAgent.IncludeContents include,
      @Nullable Integer historyWindow) {
    return contentsFor(ctx, agentName, include, historyWindow, null);
  }

  /**
   * {@link #contentsFor(InvocationContext, String, LlmAgent.IncludeContents, Integer)}, reusing the
   * conversation {@code cache} holds for this session and branch when the session's events extend
   * the ones it was built from: then only the events stored since are converted, and the result (an
   * {@link AppendOnlyList} sharing the earlier contents) is remembered in turn. Only for the whole
   * history ({@link LlmAgent.IncludeContents#DEFAULT}, no window) of at least {@link
   * HistoryCache#MIN_EVENTS} events: a history with a rewind, or a long-running call after its
   * latest compaction, is converted whole each time, and a new rewind, compaction or long-running
   * call among the new events makes the history converted whole again, since each of those changes
   * how earlier events are shown.
   */
  static List<Content> contentsFor(
      InvocationContext ctx,
      String agentName,
      LlmAgent.IncludeContents include,
      @Nullable Integer historyWindow,
      @Nullable HistoryCache cache) {
    Optional<String> branch = ctx.branch();
    List<Event> all = ctx.session().events();
    HistoryCache.Key key = null;
    if (cache != null
        && all.size() >= HistoryCache.MIN_EVENTS
        && include != LlmAgent.IncludeContents.NONE
        && historyWindow == null) {
      Session session = ctx.session();
      key =
          new HistoryCache.Key(
              session.appName(), session.userId(), session.id(), branch.orElse(null));
      HistoryCache.Built built = cache.get(key);
      if (built != null && HistoryCache.samePrefix(built.source(), all, built.size())) {
        AppendOnlyList<Content> extended = extended(built, all, branch, agentName);
        if (extended != null) {
          if (all.size() > built.size()) {
            cache.put(key, new HistoryCache.Built(all, all.size(), extended));
          }
          return extended;
        }
      }
    }
    List<Event> events = withoutRewound(all);
    int from = 0;
    List<Content> contents = new ArrayList<>();
    EventCompaction summary = null;
    for (int i = events.size() - 1; i >= 0; i--) {
      Optional<EventCompaction> c = events.get(i).actions().compaction();
      if (c.isPresent()) {
        summary = c.get();
        // Events stored before the compaction event but after the end of what it summarizes
        // still count; everything after it does.
        from = i;
        while (from > 0 && events.get(from - 1).timestamp() > summary.endTimestamp()) {
          from--;
        }
        break;
      }
    }
    if (include == LlmAgent.IncludeContents.NONE) {
      from = Math.max(from, startOfInvocations(events, ctx.invocationId(), 0));
      summary = null;
    } else if (historyWindow != null) {
      int start = startOfInvocations(events, ctx.invocationId(), historyWindow);
      if (start > from) {
        from = start;
        summary = null;
      }
    }
    if (summary != null) {
      Content retold = retellSummary(summary);
      if (retold != null) {
        contents.add(retold);
      }
    }
    java.util.Map<String, Integer> latest = latestResponses(events, from);
    for (int i = from; i < events.size(); i++) {
      Event e = events.get(i);
      if (e.partial().orElse(false) || e.content().isEmpty()) {
        continue;
      }
      Content c = e.content().get();
      if (latest != null) {
        c = withoutSuperseded(c, i, latest);
      }
      Content shown = c == null ? null : shown(e, c, branch, agentName);
      if (shown != null) {
        contents.add(shown);
      }
    }
    if (key != null && cache != null && events == all && latest == null) {
      // Later events only add to this conversation: remembered for the next request.
      AppendOnlyList<Content> built = AppendOnlyList.<Content>of().plus(contents);
      cache.put(key, new HistoryCache.Built(all, all.size(), built));
      return built;
    }
    return contents;
  }

  /**
   * The contents of {@code built} followed by those of the events of {@code all} after its
   * source's; null if one of those events changes how earlier ones are shown (a rewind, a
   * compaction, a long-running call: see {@link #contentsFor}).
   */
  private static @Nullable AppendOnlyList<Content> extended(
      HistoryCache.Built built, List<Event> all, Optional<String> branch, String agentName) {
    int n = built.size();
    if (all.size() == n) {
      return built.contents();
    }
    List<Content> more = new ArrayList<>(all.size() - n);
    for (int i = n; i < all.size(); i++) {
      Event e = all.get(i);
      if (e.actions().rewindBeforeInvocationId().isPresent()
          || e.actions().compaction().isPresent()
          || e.longRunningToolIds().isPresent()) {
        return null;
      }
      if (e.partial().orElse(false) || e.content().isEmpty()) {
        continue;
      }
      Content shown = shown(e, e.content().get(), branch, agentName);
      if (shown != null) {
        more.add(shown);
      }
    }
    return built.contents().plus(more);
  }

  /**
   * What the model of {@code agentName} on {@code branch} is shown of event {@code e} with content
   * {@code c}: {@code c} itself for the user's and the agent's own events, another agent's retold
   * as context; null when nothing (no part left, or another branch's event).
   */
  private static @Nullable Content shown(
      Event e, Content c, Optional<String> branch, String agentName) {
    if (c.parts().orElse(List.of()).isEmpty() || !onBranch(branch, e.branch())) {
      return null;
    }
    String author = e.author() == null ? "user" : e.author();
    if (author.equals("user") || author.equals(agentName)) {
      return c;
    }
    return retell(author, c);
  }

  /**
   * The index of the first event of the {@code earlier} invocations before the current one (or of
   * the current one's first event when {@code earlier} is 0); events of other invocations
   * interleaved are counted by their invocation ids, from the end.
   */
  private static int startOfInvocations(List<Event> events, String current, int earlier) {
    java.util.Set<String> seen = new java.util.HashSet<>();
    int start = events.size();
    for (int i = events.size() - 1; i >= 0; i--) {
      String id = events.get(i).invocationId();
      if (id == null) {
        continue; // an event appended outside any invocation
      }
      if (!id.equals(current) && !seen.contains(id)) {
        if (seen.size() >= earlier) {
          break;
        }
        seen.add(id);
      }
      start = i;
    }
    return start;
  }

  /**
   * {@code events} without what rewind events annulled: walking back from the end, a rewind event
   * and every event from the first one of the invocation it names up to it are left out (as ADK
   * does). Returns {@code events} itself when there is no rewind event.
   */
  static List<Event> withoutRewound(List<Event> events) {
    boolean any = false;
    for (Event e : events) {
      if (e.actions().rewindBeforeInvocationId().isPresent()) {
        any = true;
        break;
      }
    }
    if (!any) {
      return events;
    }
    List<Event> kept = new ArrayList<>();
    int i = events.size() - 1;
    while (i >= 0) {
      Event e = events.get(i);
      Optional<String> target = e.actions().rewindBeforeInvocationId();
      if (target.isEmpty()) {
        kept.add(e);
        i--;
        continue;
      }
      int first = i;
      for (int j = 0; j < i; j++) {
        if (target.get().equals(events.get(j).invocationId())) {
          first = j;
          break;
        }
      }
      i = first - 1;
    }
    java.util.Collections.reverse(kept);
    return kept;
  }

  /**
   * For each function call id answered in {@code events} from {@code from} on, the index of the
   * last event answering it; null when no event from there on has a long-running call (only those
   * get several responses), so an ordinary history costs nothing more.
   */
  private static java.util.@Nullable Map<String, Integer> latestResponses(
      List<Event> events, int from) {
    boolean any = false;
    for (int i = from; i < events.size() && !any; i++) {
      any = events.get(i).longRunningToolIds().isPresent();
    }
    if (!any) {
      return null;
    }
    java.util.Map<String, Integer> latest = new java.util.HashMap<>();
    for (int i = from; i < events.size(); i++) {
      for (FunctionResponse r : events.get(i).functionResponses()) {
        int at = i;
        r.id().ifPresent(id -> latest.put(id, at));
      }
    }
    return latest;
  }

  /**
   * {@code c} (of the event at {@code index}) without confirmation requests and answers, and
   * without responses a later event replaces; null if nothing is left.
   */
  private static @Nullable Content withoutSuperseded(
      Content c, int index, java.util.Map<String, Integer> latest) {
    List<Part> parts = c.parts().orElse(List.of());
    List<Part> kept = new ArrayList<>(parts.size());
    for (Part p : parts) {
      if (dev.adk4j.internal.tools.PendingCalls.isConfirmationPart(p)) {
        continue;
      }
      String answered = p.functionResponse().flatMap(FunctionResponse::id).orElse(null);
      if (answered != null && latest.getOrDefault(answered, index) != index) {
        continue;
      }
      kept.add(p);
    }
    if (kept.size() == parts.size()) {
      return c;
    }
    return kept.isEmpty() ? null : c.toBuilder().parts(kept).build();
  }

  /** The summary of a compaction as user-role context that opens the conversation. */
  private static @Nullable Content retellSummary(EventCompaction summary) {
    List<Part> parts = new ArrayList<>();
    parts.add(Part.fromText("For context, a summary of the conversation so far:"));
    for (Part p : summary.compactedContent().parts().orElse(List.of())) {
      if (p.text().isPresent() && !p.thought().orElse(false)) {
        parts.add(Part.fromText(p.text().get()));
      }
    }
    return parts.size() == 1 ? null : Content.builder().role("user").parts(parts).build();
  }

  static boolean onBranch(Optional<String> current, Optional<String> eventBranch) {
    if (current.isEmpty() || eventBranch.isEmpty()) {
      return true;
    }
    String cur = current.get();
    String ev = eventBranch.get();
    return cur.equals(ev) || cur.startsWith(ev + ".");
  }

  private static @Nullable Content retell(String author, Content c) {
    List<Part> parts = new ArrayList<>();
    parts.add(Part.fromText("For context:"));
    for (Part p : c.parts().orElse(List.of())) {
      if (p.thought().orElse(false)) {
        continue;
      }
      if (p.text().isPresent()) {
        parts.add(Part.fromText("[" + author + "] said: " + p.text().get()));
      } else if (p.functionCall().isPresent()) {
        FunctionCall call = p.functionCall().get();
        parts.add(
            Part.fromText(
                "["
                    + author
                    + "] called tool `"
                    + call.name().orElse("")
                    + "` with parameters: "
                    + Json.toJson(call.args().orElse(java.util.Map.of()))));
      } else if (p.functionResponse().isPresent()) {
        FunctionResponse r = p.functionResponse().get();
        parts.add(
            Part.fromText(
                "["
                    + author
                    + "] `"
                    + r.name().orElse("")
                    + "` tool returned result: "
                    + Json.toJson(r.response().orElse(java.util.Map.of()))));
      }
    }
    return parts.size() == 1 ? null : Content.builder().role("user").parts(parts).build();
  }
}
