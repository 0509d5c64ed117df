package dev.adk4j.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every service wraps its store in {@link SecretKeepingStore}: a {@link SessionStore} method it
 * does not override would run the interface's default over the wrapper instead of the store's own
 * implementation (as stateHistory once did: app: keys then failed on every service).
 */
class SecretKeepingStoreTest {

  @Test
  void theWrapperOverridesEveryMethodOfTheStoreSpi() {
    List<String> missing = new ArrayList<>();
    for (Method m : SessionStore.class.getMethods()) {
      if (Modifier.isStatic(m.getModifiers())) {
        continue;
      }
      try {
        Method own = SecretKeepingStore.class.getDeclaredMethod(m.getName(), m.getParameterTypes());
        assertThat(own.getDeclaringClass()).isEqualTo(SecretKeepingStore.class);
      } catch (NoSuchMethodException e) {
        missing.add(m.getName() + List.of(m.getParameterTypes()));
      }
    }
    assertThat(missing)
        .as("SessionStore methods SecretKeepingStore leaves to the default")
        .isEmpty();
  }
}
