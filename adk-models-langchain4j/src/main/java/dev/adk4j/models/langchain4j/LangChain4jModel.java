package dev.adk4j.models.langchain4j;

import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.GenerateContentConfig;
import com.google.genai.types.GenerateContentResponseUsageMetadata;
import com.google.genai.types.Part;
import dev.adk4j.internal.Json;
import dev.adk4j.internal.JsonSchemas;
import dev.adk4j.models.BaseLlm;
import dev.adk4j.models.LlmException;
import dev.adk4j.models.LlmRequest;
import dev.adk4j.models.LlmResponse;
import dev.adk4j.models.RetryPolicy;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.request.json.JsonSchema;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.PartialThinking;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import io.reactivex.rxjava3.core.BackpressureStrategy;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.FlowableEmitter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An adk4j model over any LangChain4j {@link ChatModel} and/or {@link StreamingChatModel}, so every
 * provider LangChain4j supports (OpenAI, Azure OpenAI, Anthropic, Gemini, Vertex AI, Bedrock,
 * Mistral, Ollama, ...) runs adk4j agents.
 *
 * <pre>{@code
 * ChatModel chat = OpenAiChatModel.builder().apiKey(key).modelName("gpt-4o-mini").build();
 * LangChain4jModel model = LangChain4jModel.builder().modelName("gpt-4o-mini").chatModel(chat).build();
 * }</pre>
 *
 * <p><b>Requests.</b> The system instruction is a {@link SystemMessage}; user text a {@link
 * UserMessage}; each function response a {@link ToolExecutionResultMessage} (call id, function
 * name, the response as JSON); the model's turns an {@link AiMessage} with its text and {@link
 * ToolExecutionRequest}s (ids kept); function declarations {@link ToolSpecification}s (their schema
 * as LangChain4j schema elements); a response schema a JSON {@link ResponseFormat}; temperature,
 * top-p, top-k, max output tokens, penalties and stop sequences the request's parameters. The model
 * name is the LangChain4j model's own. Other parts (images, audio, files) fail the call with an
 * {@link IllegalArgumentException} naming the part.
 *
 * <p><b>Responses.</b> The {@link AiMessage}'s thinking (a thought part), text and tool execution
 * requests (function calls with ids) as one content with role {@code model}; a {@code LENGTH} or
 * {@code CONTENT_FILTER} finish without content as an error response ({@code MAX_TOKENS}, {@code
 * SAFETY}); the token usage as usage metadata. Streaming (with a {@link StreamingChatModel}) emits
 * each partial text and thinking as a partial response, then the complete response; without one a
 * streamed call answers with the complete response only, and a call without streaming on a model
 * that only streams waits for the complete response.
 *
 * <p><b>Errors.</b> The LangChain4j model's exceptions become {@link LlmException}s naming the
 * model, with the HTTP status when LangChain4j reports one ({@code HttpException}, or the status
 * its typed exceptions stand for: 401, 404, 408, 429, 500); a body it could not read is reported as
 * malformed. 429, 503 and 529 are retried by the {@link RetryPolicy}: LangChain4j does not expose
 * the {@code Retry-After} header, so the policy's own backoff applies. Turn the LangChain4j model's
 * own retries off ({@code maxRetries(0)}) so that they are not multiplied.
 *
 * <p><b>Threading.</b> Thread-safe when the LangChain4j models are (theirs are); {@link
 * #generateContent} is lazy and blocks the subscribing thread for a non-streamed call.
 */
public final class LangChain4jModel extends BaseLlm {
  private final @Nullable ChatModel chatModel;
  private final @Nullable StreamingChatModel streamingModel;
  private final RetryPolicy retry;

  private LangChain4jModel(
      String model,
      @Nullable ChatModel chatModel,
      @Nullable StreamingChatModel streamingModel,
      RetryPolicy retry) {
    super(model);
    this.chatModel = chatModel;
    this.streamingModel = streamingModel;
    this.retry = retry;
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
    Objects.requireNonNull(request, "request");
    Flowable<LlmResponse> call =
        Flowable.defer(
            () -> {
              ChatRequest chatRequest = toChatRequest(request);
              ChatModel chat = chatModel;
              StreamingChatModel streaming = streamingModel;
              if (streaming != null && (stream || chat == null)) {
                Flowable<LlmResponse> all = streamed(streaming, chatRequest);
                return stream ? all : all.filter(r -> !r.partial().orElse(false));
              }
              return once(
                  Objects.requireNonNull(chat, "a chat model, as build() checks"), chatRequest);
            });
    return retry.apply(call.onErrorResumeNext(e -> Flowable.error(translate(e))));
  }

  private Flowable<LlmResponse> once(ChatModel chat, ChatRequest chatRequest) {
    return Flowable.create(
        emitter -> {
          LlmResponse response;
          try {
            response = toLlmResponse(chat.chat(chatRequest));
          } catch (RuntimeException e) {
            emitter.tryOnError(e);
            return;
          }
          emitter.onNext(response);
          emitter.onComplete();
        },
        BackpressureStrategy.BUFFER);
  }

  private Flowable<LlmResponse> streamed(StreamingChatModel streaming, ChatRequest chatRequest) {
    return Flowable.create(
        (FlowableEmitter<LlmResponse> emitter) ->
            streaming.chat(
                chatRequest,
                new StreamingChatResponseHandler() {
                  @Override
                  public void onPartialResponse(String text) {
                    if (!text.isEmpty()) {
                      emitter.onNext(partial(Part.fromText(text)));
                    }
                  }

                  @Override
                  public void onPartialThinking(PartialThinking thinking) {
                    emitter.onNext(
                        partial(Part.builder().text(thinking.text()).thought(true).build()));
                  }

                  @Override
                  public void onCompleteResponse(ChatResponse response) {
                    try {
                      emitter.onNext(toLlmResponse(response));
                    } catch (RuntimeException e) {
                      emitter.tryOnError(e);
                      return;
                    }
                    emitter.onComplete();
                  }

                  @Override
                  public void onError(Throwable error) {
                    emitter.tryOnError(error);
                  }
                }),
        BackpressureStrategy.BUFFER);
  }

  private static LlmResponse partial(Part part) {
    return LlmResponse.builder()
        .content(Content.builder().role("model").parts(List.of(part)).build())
        .partial(true)
        .build();
  }

  // ------------------------------------------------------------------ requests

  ChatRequest toChatRequest(LlmRequest request) {
    List<ChatMessage> messages = new ArrayList<>();
    request
        .systemInstruction()
        .filter(s -> !s.isEmpty())
        .ifPresent(s -> messages.add(SystemMessage.from(s)));
    for (Content content : request.contents()) {
      addMessages(messages, content);
    }
    ChatRequest.Builder b = ChatRequest.builder().messages(messages);
    if (!request.functionDeclarations().isEmpty()) {
      List<ToolSpecification> tools = new ArrayList<>();
      for (FunctionDeclaration d : request.functionDeclarations()) {
        ToolSpecification.Builder t =
            ToolSpecification.builder()
                .name(
                    d.name()
                        .orElseThrow(() -> new IllegalArgumentException("function without name")))
                .parameters(LangChain4jSchemas.object(JsonSchemas.parameters(d)));
        d.description().filter(s -> !s.isEmpty()).ifPresent(t::description);
        tools.add(t.build());
      }
      b.toolSpecifications(tools);
    }
    GenerateContentConfig config = request.config();
    config.temperature().ifPresent(t -> b.temperature(t.doubleValue()));
    config.topP().ifPresent(p -> b.topP(p.doubleValue()));
    config.topK().ifPresent(k -> b.topK(k.intValue()));
    config.maxOutputTokens().ifPresent(b::maxOutputTokens);
    config.presencePenalty().ifPresent(p -> b.presencePenalty(p.doubleValue()));
    config.frequencyPenalty().ifPresent(p -> b.frequencyPenalty(p.doubleValue()));
    config.stopSequences().filter(s -> !s.isEmpty()).ifPresent(b::stopSequences);
    Map<String, Object> schema =
        config.responseSchema().map(JsonSchemas::toJsonSchema).orElse(null);
    if (schema == null && config.responseJsonSchema().isPresent()) {
      schema = JsonSchemas.read(Json.toJson(config.responseJsonSchema().get()));
    }
    if (schema != null) {
      b.responseFormat(
          ResponseFormat.builder()
              .type(ResponseFormatType.JSON)
              .jsonSchema(
                  JsonSchema.builder()
                      .name("output")
                      .rootElement(LangChain4jSchemas.element(schema))
                      .build())
              .build());
    } else if (config.responseMimeType().filter("application/json"::equals).isPresent()) {
      b.responseFormat(ResponseFormat.builder().type(ResponseFormatType.JSON).build());
    }
    return b.build();
  }

  private void addMessages(List<ChatMessage> messages, Content content) {
    boolean model =
        content.role().filter(r -> r.equals("model") || r.equals("assistant")).isPresent();
    StringBuilder text = new StringBuilder();
    List<ToolExecutionRequest> calls = new ArrayList<>();
    List<ToolExecutionResultMessage> results = new ArrayList<>();
    for (Part p : content.parts().orElse(List.of())) {
      if (p.thought().orElse(false)) {
        continue;
      }
      if (p.text().isPresent()) {
        if (text.length() > 0) {
          text.append('\n');
        }
        text.append(p.text().get());
      } else if (p.functionCall().isPresent()) {
        FunctionCall c = p.functionCall().get();
        calls.add(
            ToolExecutionRequest.builder()
                .id(c.id().orElse(""))
                .name(c.name().orElse(""))
                .arguments(Json.toJson(c.args().orElse(Map.of())))
                .build());
      } else if (p.functionResponse().isPresent()) {
        FunctionResponse r = p.functionResponse().get();
        results.add(
            ToolExecutionResultMessage.from(
                r.id().orElse(r.name().orElse("")),
                r.name().orElse(""),
                Json.toJson(r.response().orElse(Map.of()))));
      } else {
        throw new IllegalArgumentException(
            "LangChain4j model '"
                + model()
                + "' cannot be sent this part (only text, function calls and function responses"
                + " are mapped; see docs/models.md): "
                + (p.inlineData().isPresent()
                    ? "inline data (" + p.inlineData().get().mimeType().orElse("?") + ")"
                    : p.toJson()));
      }
    }
    if (model) {
      if (text.length() > 0 || !calls.isEmpty()) {
        AiMessage.Builder ai = AiMessage.builder();
        if (text.length() > 0) {
          ai.text(text.toString());
        }
        if (!calls.isEmpty()) {
          ai.toolExecutionRequests(calls);
        }
        messages.add(ai.build());
      }
      return;
    }
    messages.addAll(results);
    if (text.length() > 0) {
      messages.add(UserMessage.from(text.toString()));
    }
  }

  // ------------------------------------------------------------------ responses

  LlmResponse toLlmResponse(ChatResponse response) {
    AiMessage ai = response.aiMessage();
    List<Part> parts = new ArrayList<>();
    if (ai.thinking() != null && !ai.thinking().isEmpty()) {
      parts.add(Part.builder().text(ai.thinking()).thought(true).build());
    }
    if (ai.text() != null && !ai.text().isEmpty()) {
      parts.add(Part.fromText(ai.text()));
    }
    for (ToolExecutionRequest call : ai.toolExecutionRequests()) {
      Map<String, Object> args;
      String arguments = call.arguments();
      try {
        args = arguments == null || arguments.isBlank() ? Map.of() : JsonSchemas.read(arguments);
      } catch (IllegalArgumentException e) {
        throw new LlmException(
            model(),
            0,
            "LangChain4j model '"
                + model()
                + "' called '"
                + call.name()
                + "' (id "
                + call.id()
                + ") with arguments that are not a JSON object: "
                + arguments,
            e);
      }
      parts.add(
          Part.builder()
              .functionCall(
                  FunctionCall.builder().id(call.id()).name(call.name()).args(args).build())
              .build());
    }
    LlmResponse.Builder b =
        LlmResponse.builder().usageMetadata(usage(response.tokenUsage())).turnComplete(true);
    boolean answered = parts.stream().anyMatch(p -> !p.thought().orElse(false));
    FinishReason finish = response.finishReason();
    if (answered
        || finish == null
        || finish == FinishReason.STOP
        || finish == FinishReason.TOOL_EXECUTION) {
      return b.content(Content.builder().role("model").parts(parts).build()).build();
    }
    String code =
        switch (finish) {
          case LENGTH -> "MAX_TOKENS";
          case CONTENT_FILTER -> "SAFETY";
          default -> finish.name();
        };
    return b.errorCode(code)
        .errorMessage("The model stopped without content (finish reason " + finish + ")")
        .build();
  }

  private static @Nullable GenerateContentResponseUsageMetadata usage(@Nullable TokenUsage u) {
    if (u == null) {
      return null;
    }
    GenerateContentResponseUsageMetadata.Builder b = GenerateContentResponseUsageMetadata.builder();
    if (u.inputTokenCount() != null) {
      b.promptTokenCount(u.inputTokenCount());
    }
    if (u.outputTokenCount() != null) {
      b.candidatesTokenCount(u.outputTokenCount());
    }
    if (u.totalTokenCount() != null) {
      b.totalTokenCount(u.totalTokenCount());
    }
    return b.build();
  }

  // ------------------------------------------------------------------ errors

  Throwable translate(Throwable e) {
    if (e instanceof LlmException || e instanceof IllegalArgumentException) {
      return e;
    }
    String prefix = "LangChain4j model '" + model() + "'";
    int status = 0;
    boolean unreadable = false;
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (status == 0 && t instanceof dev.langchain4j.exception.HttpException) {
        status = ((dev.langchain4j.exception.HttpException) t).statusCode();
      }
      if (t instanceof com.fasterxml.jackson.core.JsonProcessingException) {
        unreadable = true;
      }
    }
    if (status == 0) {
      status = statusOf(e);
    }
    if (status > 0) {
      return new LlmException(
          model(), status, prefix + " answered HTTP " + status + ": " + e.getMessage(), e);
    }
    if (unreadable) {
      return new LlmException(
          model(),
          0,
          prefix + " answered a malformed response that could not be read (" + firstLine(e) + ")",
          e);
    }
    if (e instanceof RuntimeException) {
      return new LlmException(model(), 0, prefix + " failed: " + firstLine(e), e);
    }
    return e;
  }

  /** The status a typed LangChain4j exception stands for, when it carries no HttpException. */
  private static int statusOf(Throwable e) {
    if (e instanceof dev.langchain4j.exception.RateLimitException) {
      return 429;
    }
    if (e instanceof dev.langchain4j.exception.AuthenticationException) {
      return 401;
    }
    if (e instanceof dev.langchain4j.exception.ModelNotFoundException) {
      return 404;
    }
    if (e instanceof dev.langchain4j.exception.InternalServerException) {
      return 500;
    }
    return 0;
  }

  private static String firstLine(Throwable e) {
    StringBuilder b = new StringBuilder(e.getClass().getSimpleName() + ": " + e.getMessage());
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
      b.append("; ").append(t.getClass().getSimpleName()).append(": ").append(t.getMessage());
    }
    String s = b.toString();
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  @Override
  public String toString() {
    return "LangChain4jModel{model=" + model() + "}";
  }

  /** Builds a {@link LangChain4jModel}: a name and at least one LangChain4j model. */
  public static final class Builder {
    private @Nullable String modelName;
    private @Nullable ChatModel chatModel;
    private @Nullable StreamingChatModel streamingModel;
    private RetryPolicy retry = RetryPolicy.defaults();

    private Builder() {}

    /**
     * The name adk4j knows the model by (events, traces, errors). Default: the LangChain4j model's
     * default request parameters' model name.
     */
    public Builder modelName(String modelName) {
      Objects.requireNonNull(modelName, "modelName");
      if (modelName.isBlank()) {
        throw new IllegalArgumentException("modelName is blank");
      }
      this.modelName = modelName;
      return this;
    }

    /** The model for calls without streaming (and streamed calls if no streaming model is set). */
    public Builder chatModel(ChatModel chatModel) {
      this.chatModel = Objects.requireNonNull(chatModel, "chatModel");
      return this;
    }

    /** The model for streamed calls (and every call if no chat model is set). */
    public Builder streamingModel(StreamingChatModel streamingModel) {
      this.streamingModel = Objects.requireNonNull(streamingModel, "streamingModel");
      return this;
    }

    /** When to retry; default {@link RetryPolicy#defaults()}. */
    public Builder retry(RetryPolicy retry) {
      this.retry = Objects.requireNonNull(retry, "retry");
      return this;
    }

    /**
     * @throws IllegalStateException if neither model was set, or no name was given and the models
     *     have none
     */
    public LangChain4jModel build() {
      if (chatModel == null && streamingModel == null) {
        throw new IllegalStateException(
            "LangChain4jModel.builder(): chatModel(...) or streamingModel(...) is required");
      }
      String name = modelName;
      if (name == null) {
        name =
            chatModel != null
                ? defaultName(chatModel.defaultRequestParameters())
                : defaultName(Objects.requireNonNull(streamingModel).defaultRequestParameters());
      }
      if (name == null || name.isBlank()) {
        throw new IllegalStateException(
            "LangChain4jModel.builder(): modelName(...) is required (the LangChain4j model has no"
                + " default model name)");
      }
      return new LangChain4jModel(name, chatModel, streamingModel, retry);
    }

    private static @Nullable String defaultName(
        dev.langchain4j.model.chat.request.@Nullable ChatRequestParameters p) {
      return p == null ? null : p.modelName();
    }
  }
}
