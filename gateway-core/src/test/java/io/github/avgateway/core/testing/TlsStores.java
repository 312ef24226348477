package io.github.avgateway.core.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed server key store and a trust store holding its certificate, generated with the
 * running JDK's {@code keytool} (PKCS12, valid for {@code localhost} and {@code 127.0.0.1}).
 *
 * @param keyStore the server's key and certificate
 * @param trustStore the certificate alone, for clients
 * @param password the password of both
 */
public record TlsStores(Path keyStore, Path trustStore, String password) {

  /** Generates both stores in {@code dir}. */
  public static TlsStores generate(Path dir, String password) throws IOException {
    Path keyStore = dir.resolve("server.p12");
    Path cert = dir.resolve("server.crt");
    Path trustStore = dir.resolve("trust.p12");
    keytool(
        "-genkeypair",
        "-alias",
        "server",
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-dname",
        "CN=localhost",
        "-ext",
        "SAN=dns:localhost,ip:127.0.0.1",
        "-validity",
        "2",
        "-storetype",
        "PKCS12",
        "-keystore",
        keyStore.toString(),
        "-storepass",
        password);
    keytool(
        "-exportcert",
        "-alias",
        "server",
        "-rfc",
        "-file",
        cert.toString(),
        "-keystore",
        keyStore.toString(),
        "-storepass",
        password);
    keytool(
        "-importcert",
        "-noprompt",
        "-alias",
        "server",
        "-file",
        cert.toString(),
        "-storetype",
        "PKCS12",
        "-keystore",
        trustStore.toString(),
        "-storepass",
        password);
    return new TlsStores(keyStore, trustStore, password);
  }

  private static void keytool(String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IOException("keytool did not finish within 60 s: " + command);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new IOException("interrupted while running keytool", e);
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (process.exitValue() != 0) {
      throw new IOException("keytool failed (" + process.exitValue() + "): " + output);
    }
  }
}
