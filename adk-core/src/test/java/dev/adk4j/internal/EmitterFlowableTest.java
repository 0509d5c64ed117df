package dev.adk4j.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.subscribers.TestSubscriber;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * {@link EmitterFlowable}: what {@code Flowable.create(..., BUFFER)} does (nothing dropped, order
 * kept, terminal signals after the items), with the items a subscriber asked for handed over at
 * once.
 */
class EmitterFlowableTest {

  @Test
  void itemsNotYetRequestedWait_andComeInOrderWithTheCompletionAfterThem() {
    Flowable<Integer> f =
        EmitterFlowable.create(
            e -> {
              for (int i = 1; i <= 5; i++) {
                e.onNext(i);
              }
              e.onComplete();
            });
    TestSubscriber<Integer> ts = f.test(0);
    ts.assertNoValues().assertNotComplete();
    ts.request(2);
    ts.assertValues(1, 2).assertNotComplete();
    ts.request(10);
    ts.assertValues(1, 2, 3, 4, 5).assertComplete();
  }

  @Test
  void anErrorComesAfterTheItemsBeforeIt_andLaterSignalsAreIgnored() {
    IllegalStateException boom = new IllegalStateException("boom");
    TestSubscriber<String> ts =
        EmitterFlowable.<String>create(
                e -> {
                  e.onNext("a");
                  assertThat(e.tryOnError(boom)).isTrue();
                  e.onNext("ignored");
                  assertThat(e.tryOnError(new IllegalStateException("second"))).isFalse();
                })
            .test(0);
    ts.assertNoValues().assertNoErrors();
    ts.request(1);
    ts.assertValues("a").assertError(boom);
  }

  @Test
  void cancellingStopsTheSource_andRunsItsCancellable() {
    AtomicBoolean released = new AtomicBoolean();
    List<Boolean> seenCancelled = new ArrayList<>();
    TestSubscriber<Integer> ts = new TestSubscriber<>(1);
    EmitterFlowable.<Integer>create(
            e -> {
              e.setCancellable(() -> released.set(true));
              e.onNext(1);
              ts.cancel(); // the subscriber goes away while the source runs
              seenCancelled.add(e.isCancelled());
              e.onNext(2);
              e.onComplete();
            })
        .subscribe(ts);
    ts.assertValues(1).assertNotComplete();
    assertThat(released).isTrue();
    assertThat(seenCancelled).containsExactly(true);
  }

  @Test
  void completionRunsTheCancellable_asRxJavasEmittersDo() {
    AtomicBoolean released = new AtomicBoolean();
    EmitterFlowable.<Integer>create(
            e -> {
              e.setCancellable(() -> released.set(true));
              e.onNext(1);
              e.onComplete();
            })
        .test()
        .assertValues(1)
        .assertComplete();
    assertThat(released).isTrue();
  }

  @Test
  void aSourceThatThrowsEndsTheFlowWithItsError() {
    IllegalArgumentException bad = new IllegalArgumentException("bad");
    EmitterFlowable.<Integer>create(
            e -> {
              e.onNext(1);
              throw bad;
            })
        .test()
        .assertValues(1)
        .assertError(bad);
  }

  @Test
  void itemsEmittedOnOneThreadAndRequestedFromAnother_allArriveInOrder() throws Exception {
    int n = 20_000;
    CountDownLatch started = new CountDownLatch(1);
    TestSubscriber<Integer> ts = new TestSubscriber<>(0);
    Thread producer =
        new Thread(
            () ->
                EmitterFlowable.<Integer>create(
                        e -> {
                          started.countDown();
                          for (int i = 0; i < n; i++) {
                            e.onNext(i);
                          }
                          e.onComplete();
                        })
                    .subscribe(ts));
    producer.start();
    assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
    for (int i = 0; i < n; i += 7) {
      ts.request(7);
    }
    producer.join(10_000);
    ts.awaitDone(10, TimeUnit.SECONDS);
    ts.assertValueCount(n).assertComplete().assertNoErrors();
    List<Integer> values = ts.values();
    for (int i = 0; i < n; i++) {
      assertThat(values.get(i)).isEqualTo(i);
    }
  }
}
