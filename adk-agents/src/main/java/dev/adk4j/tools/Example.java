package dev.adk4j.tools;

import com.google.genai.types.Content;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One few-shot example for an {@link ExampleTool}, as ADK for Java's {@code
 * com.google.adk.examples.Example}: a user's message ({@link #input()}) and what followed it
 * ({@link #output()}: the model's replies, its function calls, the function responses), in order.
 *
 * @param input the user's message; its text parts are what the example shows of it
 * @param output the contents that followed, copied (unmodifiable)
 */
public record Example(Content input, List<Content> output) {

  public Example {
    Objects.requireNonNull(input, "input");
    output = List.copyOf(Objects.requireNonNull(output, "output"));
  }

  /** ADK's builder: {@code Example.builder().input(..).output(..).build()}. */
  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder().input(input).output(output);
  }

  /** Builds an {@link Example}; both parts are required. Not thread-safe. */
  public static final class Builder {
    private @Nullable Content input;
    private @Nullable List<Content> output;

    private Builder() {}

    public Builder input(Content input) {
      this.input = input;
      return this;
    }

    public Builder output(List<Content> output) {
      this.output = output;
      return this;
    }

    /**
     * @throws NullPointerException naming {@code input} or {@code output} if one was not set
     */
    public Example build() {
      return new Example(
          Objects.requireNonNull(input, "input"), Objects.requireNonNull(output, "output"));
    }
  }
}
