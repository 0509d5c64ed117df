/** An example Spring Boot application on the adk4j starter (see {@code docs/spring-boot.md}). */
@NullMarked
package dev.adk4j.examples.spring;

import org.jspecify.annotations.NullMarked;
