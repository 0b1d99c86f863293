package io.domainoperators.testenv;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;

import org.bouncycastle.crypto.generators.OpenBSDBCrypt;

/**
 * Writes the bcrypt hash ({@code $2y$}, cost 10) of the password in the environment variable
 * {@code TESTENV_PASSWORD} to the file named by the only argument (mode 0600). The password never appears on a
 * command line. Needs the security plugin's bcprov jar on the classpath.
 */
public final class BcryptHash {

    private BcryptHash() {}

    public static void main(String[] args) throws Exception {
        String password = System.getenv("TESTENV_PASSWORD");
        if (args.length != 1 || password == null || password.isEmpty()) {
            System.err.println("usage: TESTENV_PASSWORD=... BcryptHash <output file>");
            System.exit(2);
        }
        byte[] salt = new byte[16];
        new SecureRandom().nextBytes(salt);
        String hash = OpenBSDBCrypt.generate("2y", password.toCharArray(), salt, 10);
        Path out = Path.of(args[0]);
        Files.deleteIfExists(out);
        Files.createFile(out, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(out, hash, StandardCharsets.UTF_8);
    }
}
