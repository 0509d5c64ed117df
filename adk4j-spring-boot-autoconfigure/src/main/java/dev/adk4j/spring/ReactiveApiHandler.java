package dev.adk4j.spring;

import com.sun.net.httpserver.HttpHandler;
import dev.adk4j.server.AdkServer;
import java.net.URI;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebHandler;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Serves adk-server's handler ({@link AdkServer#handler}) in a WebFlux application under a base
 * path, as {@link AdkApiHandler} does in Spring MVC: the same dev UI switch and, with Spring
 * Security, the same rule that a request reaches a user's sessions only as that user. The request
 * body is read whole (up to adk-server's limit), then the blocking handler runs on Reactor's
 * bounded-elastic scheduler with a {@link ReactiveExchange}, whose flushes (each SSE event) reach
 * the client as they happen. With Micrometer's context-propagation library (there with Micrometer
 * Tracing), the thread-local values of the request's Reactor context, the request's observation and
 * so its span among them, are current on that thread: a turn's spans join the request's trace.
 */
final class ReactiveApiHandler implements WebHandler {
  private final HttpHandler api;
  private final String basePath;
  private final boolean devUi;
  private final boolean checkUser;

  /**
   * @param basePath normalized ({@link AdkApiHandler#normalize}): empty or starting with {@code /}
   * @param checkUser whether the user ids of requests must be the principal's name
   */
  ReactiveApiHandler(HttpHandler api, String basePath, boolean devUi, boolean checkUser) {
    this.api = api;
    this.basePath = basePath;
    this.devUi = devUi;
    this.checkUser = checkUser;
  }

  @Override
  public Mono<Void> handle(ServerWebExchange exchange) {
    ServerHttpRequest req = exchange.getRequest();
    ServerHttpResponse res = exchange.getResponse();
    String prefix = req.getPath().contextPath().value() + basePath;
    String raw = req.getPath().value();
    String path = raw.startsWith(prefix) ? raw.substring(prefix.length()) : raw;
    if (path.isEmpty()) {
      path = "/";
    }
    List<String> seg = AdkApiRequests.segments(path);
    boolean uiPath = seg.isEmpty() || seg.get(0).equals("dev-ui");
    if (uiPath && !devUi) {
      return send(res, 404, "the dev UI is off; set adk4j.server.dev-ui=true to serve it");
    }
    if (devUi && seg.equals(List.of("dev-ui", "assets", "config", "runtime-config.json"))) {
      res.setStatusCode(HttpStatus.OK);
      res.getHeaders().setContentType(MediaType.APPLICATION_JSON);
      return res.writeWith(
          Mono.just(res.bufferFactory().wrap(AdkApiRequests.runtimeConfig(prefix))));
    }
    String query = req.getURI().getRawQuery();
    URI uri;
    try {
      uri = URI.create(path + (query == null ? "" : "?" + query));
    } catch (IllegalArgumentException e) {
      return send(res, 400, "bad request URI");
    }
    Mono<byte[]> body =
        DataBufferUtils.join(req.getBody(), AdkServer.DEFAULT_MAX_BODY_BYTES + 1)
            .map(
                b -> {
                  byte[] bytes = new byte[b.readableByteCount()];
                  b.read(bytes);
                  DataBufferUtils.release(b);
                  return bytes;
                })
            .defaultIfEmpty(new byte[0]);
    Mono<String> who = exchange.getPrincipal().map(Principal::getName).defaultIfEmpty("");
    return body.zipWith(who)
        .flatMap(
            t -> {
              byte[] bytes = t.getT1();
              if (checkUser) {
                List<String> users = new ArrayList<>();
                String pathUser = AdkApiRequests.pathUser(seg);
                if (pathUser != null) {
                  users.add(pathUser);
                }
                if (AdkApiRequests.isRun(seg)) {
                  users.addAll(AdkApiRequests.bodyUsers(bytes));
                }
                String refused =
                    AdkApiRequests.refusal(t.getT2().isEmpty() ? null : t.getT2(), users);
                if (refused != null) {
                  return send(res, 403, refused);
                }
              }
              return serve(exchange, uri, prefix, bytes);
            })
        .onErrorResume(
            DataBufferLimitException.class,
            e ->
                send(
                    res,
                    413,
                    "the request body is larger than "
                        + AdkServer.DEFAULT_MAX_BODY_BYTES
                        + " bytes"));
  }

  /** Runs adk-server's handler on a worker thread; the response streams as it writes. */
  private Mono<Void> serve(ServerWebExchange exchange, URI uri, String prefix, byte[] body) {
    return Mono.deferContextual(
        context -> {
          ReactiveExchange ex = new ReactiveExchange(exchange, uri, prefix, body);
          Runnable work =
              () -> {
                try {
                  api.handle(ex);
                } catch (Throwable t) {
                  ex.fail(t); // before the close, so that a failure before the headers is one
                } finally {
                  ex.close();
                }
              };
          // The request's observation (and so its span) current on the worker thread too.
          Mono.fromRunnable(ReactorContexts.onWorker(context, work))
              .subscribeOn(Schedulers.boundedElastic())
              .subscribe();
          ServerHttpResponse res = exchange.getResponse();
          return ex.headersSent()
              .then(Mono.defer(() -> res.writeAndFlushWith(ex.body().map(Mono::<DataBuffer>just))));
        });
  }

  private static Mono<Void> send(ServerHttpResponse res, int status, String message) {
    res.setStatusCode(HttpStatus.valueOf(status));
    res.getHeaders().setContentType(MediaType.APPLICATION_JSON);
    return res.writeWith(Mono.just(res.bufferFactory().wrap(AdkApiRequests.errorBody(message))));
  }
}
