package dev.adk4j.agents;

import com.google.genai.types.Blob;
import com.google.genai.types.Content;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.processors.FlowableProcessor;
import io.reactivex.rxjava3.processors.UnicastProcessor;
import java.util.Objects;

/**
 * What the caller sends into a live run ({@code Runner.runLive}): user turns ({@link #content}),
 * realtime input such as audio chunks ({@link #realtime}), and the end ({@link #close}). Items sent
 * before the run starts are kept and sent in order once it does. One queue serves one live run.
 *
 * <p>Thread-safe: any thread may send; items from one thread keep their order.
 */
public final class LiveRequestQueue {
  private final FlowableProcessor<LiveRequest> processor =
      UnicastProcessor.<LiveRequest>create().toSerialized();

  /** Sends {@code content} as a user turn: it is stored in the session, and the model answers. */
  public void content(Content content) {
    send(LiveRequest.builder().content(Objects.requireNonNull(content, "content")).build());
  }

  /** Sends realtime input (audio, an image); it is forwarded to the model, not stored. */
  public void realtime(Blob blob) {
    send(LiveRequest.builder().blob(Objects.requireNonNull(blob, "blob")).build());
  }

  /** Sends {@code request}. */
  public void send(LiveRequest request) {
    processor.onNext(Objects.requireNonNull(request, "request"));
  }

  /**
   * Ends the live run: the run stops once the items sent before are handled (a model turn under way
   * is not waited for), closes its connection and completes. Idempotent.
   */
  public void close() {
    processor.onNext(LiveRequest.builder().close(true).build());
    processor.onComplete();
  }

  /** The requests, as the live run reads them; subscribe once. */
  public Flowable<LiveRequest> get() {
    return processor;
  }
}
