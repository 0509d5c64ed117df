package dev.adk4j.spring;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.security.crypto.password.NoOpPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;

/**
 * The test users' passwords in plain text. Without a {@link PasswordEncoder} bean, Spring Security
 * uses its delegating encoder, which asks to upgrade a {@code {noop}} password: the reactive
 * authentication manager then encodes the presented password with BCrypt on every request (30 % of
 * this module's test samples in JFR), and the servlet one encodes a dummy password with BCrypt
 * once. What the tests ask (who may call what) does not depend on how a password is stored.
 */
@TestConfiguration(proxyBeanMethods = false)
class PlainPasswords {
  @Bean
  @SuppressWarnings("deprecation") // deprecated as insecure: plain text is what the tests want
  PasswordEncoder plainPasswords() {
    return NoOpPasswordEncoder.getInstance();
  }
}
