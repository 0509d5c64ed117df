package dev.adk4j.agents;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import dev.adk4j.events.Event;
import dev.adk4j.state.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Builds the conversation an agent sends to its model from the session's events. */
final class Histories {
  private Histories() {}

  /**
   * The contents for {@code agentName}: the user's messages and the agent's own turns as they are,
   * other agents' turns retold as user-role context, restricted to events of the agent's branch
   * (events on no branch, on its branch, or on an ancestor of it).
   */
  static List<Content> contentsFor(InvocationContext ctx, String agentName) {
    Optional<String> branch = ctx.branch();
    List<Content> contents = new ArrayList<>();
    for (Event e : ctx.session().events()) {
      if (e.partial().orElse(false) || e.content().isEmpty()) {
        continue;
      }
      Content c = e.content().get();
      if (c.parts().orElse(List.of()).isEmpty() || !onBranch(branch, e.branch())) {
        continue;
      }
      String author = e.author() == null ? "user" : e.author();
      if (author.equals("user") || author.equals(agentName)) {
        contents.add(c);
      } else {
        Content retold = retell(author, c);
        if (retold != null) {
          contents.add(retold);
        }
      }
    }
    return contents;
  }

  static boolean onBranch(Optional<String> current, Optional<String> eventBranch) {
    if (current.isEmpty() || eventBranch.isEmpty()) {
      return true;
    }
    String cur = current.get();
    String ev = eventBranch.get();
    return cur.equals(ev) || cur.startsWith(ev + ".");
  }

  private static Content retell(String author, Content c) {
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
