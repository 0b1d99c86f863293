import java.io.FileInputStream;
import java.io.InputStream;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.acl.AclBindingFilter;

/**
 * testenv health probe: one authenticated, authorized admin round trip against the broker.
 *
 * <p>Usage: {@code java -cp <classpath>:<probe dir> KafkaProbe <client.properties> <timeoutMs>}. The
 * properties file carries bootstrap.servers and the SASL/SCRAM login of a super user. The probe describes
 * the cluster (needs a completed SCRAM login) and lists ACLs (needs DESCRIBE on the cluster, so the
 * StandardAuthorizer has loaded and treats the user as a super user). Exit code 0 and one line
 * {@code ok cluster=<id> acls=<n>} on success; exit code 1 and the error's class and message otherwise.
 */
public final class KafkaProbe {
  private KafkaProbe() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: KafkaProbe <client.properties> <timeoutMs>");
      System.exit(2);
    }
    Properties props = new Properties();
    try (InputStream in = new FileInputStream(args[0])) {
      props.load(in);
    }
    int timeoutMs = Integer.parseInt(args[1]);
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(timeoutMs));
    props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(timeoutMs));
    props.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "500");
    int code = 1;
    Admin admin = Admin.create(props);
    try {
      String clusterId = admin.describeCluster().clusterId().get(timeoutMs, TimeUnit.MILLISECONDS);
      int acls = admin.describeAcls(AclBindingFilter.ANY).values().get(timeoutMs, TimeUnit.MILLISECONDS).size();
      System.out.println("ok cluster=" + clusterId + " acls=" + acls);
      code = 0;
    } catch (Exception e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      System.out.println("not ready: " + cause.getClass().getName() + ": " + cause.getMessage());
    } finally {
      // Bounded close: a probe against a dead broker must not hang on pending calls.
      admin.close(Duration.ofMillis(500));
    }
    System.exit(code);
  }
}
