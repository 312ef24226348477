package io.github.avgateway.core.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.util.Base64;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The server key and certificate of {@link TlsStores} as PEM files, the form RabbitMQ (Erlang's
 * ssl) reads: the certificate (also the CA file: it is self-signed) and the PKCS#8 private key.
 *
 * @param certificate the server's self-signed certificate, PEM
 * @param privateKey its unencrypted private key, PEM (PKCS#8)
 */
public record TlsPem(Path certificate, Path privateKey) {

  private static final String ALIAS = "server";

  /** Writes the PEM files of {@code stores}' server entry into {@code dir}. */
  public static TlsPem of(TlsStores stores, Path dir) throws IOException {
    try {
      KeyStore keyStore = load(stores.keyStore(), stores.password());
      Key key = keyStore.getKey(ALIAS, stores.password().toCharArray());
      byte[] cert = keyStore.getCertificate(ALIAS).getEncoded();
      TlsPem pem = new TlsPem(dir.resolve("server-cert.pem"), dir.resolve("server-key.pem"));
      Files.writeString(pem.certificate(), pem("CERTIFICATE", cert), StandardCharsets.US_ASCII);
      Files.writeString(
          pem.privateKey(), pem("PRIVATE KEY", key.getEncoded()), StandardCharsets.US_ASCII);
      return pem;
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot read " + stores.keyStore(), e);
    }
  }

  /** A client TLS context that trusts exactly the certificates of {@code stores}' trust store. */
  public static SSLContext trusting(TlsStores stores) throws IOException {
    try {
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(load(stores.trustStore(), stores.password()));
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot read " + stores.trustStore(), e);
    }
  }

  private static KeyStore load(Path file, String password)
      throws IOException, GeneralSecurityException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, password.toCharArray());
    }
    return store;
  }

  private static String pem(String type, byte[] der) {
    String body = Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der);
    return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
  }
}
