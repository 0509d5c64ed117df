package dev.adk4j.tools.mcp;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What an MCP tool's result becomes for the model (see {@link McpToolset}): the structured content
 * if there is some; else the text, when every content block is text; else the blocks as a list of
 * maps. A result flagged {@code isError} is a failure of the call.
 */
final class McpResults {
  private McpResults() {}

  static Map<String, Object> toResponse(McpSchema.CallToolResult result) {
    Object structured = result.structuredContent();
    if (structured != null) {
      if (structured instanceof Map<?, ?> map) {
        Map<String, Object> response = new LinkedHashMap<>();
        map.forEach((k, v) -> response.put(String.valueOf(k), v));
        return response;
      }
      return wrap("result", structured);
    }
    List<McpSchema.Content> content = result.content() == null ? List.of() : result.content();
    StringBuilder text = new StringBuilder();
    boolean allText = true;
    for (McpSchema.Content c : content) {
      if (c instanceof McpSchema.TextContent t) {
        if (text.length() > 0) {
          text.append('\n');
        }
        text.append(t.text());
      } else {
        allText = false;
      }
    }
    if (allText) {
      return wrap("result", text.toString());
    }
    List<Object> blocks = new ArrayList<>();
    for (McpSchema.Content c : content) {
      blocks.add(block(c));
    }
    return wrap("content", blocks);
  }

  /** The text of an error result, for the failure's message. */
  static String errorText(McpSchema.CallToolResult result) {
    StringBuilder text = new StringBuilder();
    for (McpSchema.Content c :
        result.content() == null ? List.<McpSchema.Content>of() : result.content()) {
      if (c instanceof McpSchema.TextContent t) {
        if (text.length() > 0) {
          text.append('\n');
        }
        text.append(t.text());
      }
    }
    return text.length() == 0 ? "(no message)" : text.toString();
  }

  private static Map<String, Object> block(McpSchema.Content c) {
    Map<String, Object> b = new LinkedHashMap<>();
    if (c instanceof McpSchema.TextContent t) {
      b.put("type", "text");
      b.put("text", t.text());
    } else if (c instanceof McpSchema.ImageContent i) {
      b.put("type", "image");
      put(b, "mimeType", i.mimeType());
      put(b, "data", i.data());
    } else if (c instanceof McpSchema.AudioContent a) {
      b.put("type", "audio");
      put(b, "mimeType", a.mimeType());
      put(b, "data", a.data());
    } else if (c instanceof McpSchema.EmbeddedResource r) {
      b.put("type", "resource");
      McpSchema.ResourceContents rc = r.resource();
      if (rc instanceof McpSchema.TextResourceContents t) {
        put(b, "uri", t.uri());
        put(b, "mimeType", t.mimeType());
        put(b, "text", t.text());
      } else if (rc instanceof McpSchema.BlobResourceContents blob) {
        put(b, "uri", blob.uri());
        put(b, "mimeType", blob.mimeType());
        put(b, "blob", blob.blob());
      }
    } else if (c instanceof McpSchema.ResourceLink l) {
      b.put("type", "resource_link");
      put(b, "uri", l.uri());
      put(b, "name", l.name());
      put(b, "description", l.description());
      put(b, "mimeType", l.mimeType());
    } else {
      b.put("type", c.type());
    }
    return b;
  }

  private static void put(Map<String, Object> b, String key, @Nullable Object value) {
    if (value != null) {
      b.put(key, value);
    }
  }

  private static Map<String, Object> wrap(String key, Object value) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(key, value);
    return m;
  }
}
