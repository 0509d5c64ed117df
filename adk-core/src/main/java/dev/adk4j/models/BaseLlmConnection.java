package dev.adk4j.models;

import com.google.genai.types.Blob;
import com.google.genai.types.Content;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Flowable;
import java.util.List;

/**
 * A live (bidirectional) connection to a model, opened by {@link BaseLlm#connect}: the caller sends
 * history, content and realtime input (audio, video frames) while the model's responses arrive on
 * {@link #receive()}, as ADK for Java's connection of the same name.
 *
 * <p>{@link #receive()} emits the model's output as it comes: {@link LlmResponse#partial() partial}
 * responses carrying pieces of a model turn, a response with {@link LlmResponse#turnComplete()}
 * true when the model's turn ends, non-partial responses whose content holds function calls the
 * caller answers with {@link #sendContent} (a content of function responses), and responses that
 * carry only usage metadata. It ends normally after {@link #close()}, and fails with an {@link
 * LlmException} naming the model when the connection is lost or closed by the other side.
 *
 * <p>Implementations are thread-safe: sending and receiving happen on different threads.
 */
public interface BaseLlmConnection extends AutoCloseable {

  /** Sends the conversation so far (the model answers only if the last content is the user's). */
  Completable sendHistory(List<Content> history);

  /**
   * Sends one content: a user turn the model answers, or function responses answering its calls.
   */
  Completable sendContent(Content content);

  /**
   * Sends realtime input (a chunk of audio or an image), which the model may answer at any time.
   */
  Completable sendRealtime(Blob blob);

  /** The model's responses; see the class comment. Subscribe once. */
  Flowable<LlmResponse> receive();

  /** Closes the connection; {@link #receive()} completes. Idempotent. */
  @Override
  void close();

  /** Closes the connection because of {@code cause}; {@link #receive()} fails with it. */
  void close(Throwable cause);
}
