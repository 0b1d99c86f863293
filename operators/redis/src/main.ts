// Wiring only: the shared start-up (configuration, kubeconfig, client, manager, Events, signals, shutdown) runs the
// Redis controllers. Exit codes as runOperator documents them.
import { startOperator } from '@domain-operators/reconcile';
import { runRestoreFetch } from './agent/restore-command.ts';
import { RESTORE_FETCH_COMMAND } from './agent/restore-plan.ts';
import { VOLUME_BACKUP_COMMAND } from './agent/volume-backup-contract.ts';
import { volumeBackupMain } from './agent/volume-backup-main.ts';
import { API_GROUP, loadConfig } from './config.ts';
import { buildControllers } from './controllers/setup.ts';

// The same image runs the agents beside Redis (`node /app/main.js <command>`): they never start the operator.
if (process.argv[2] === RESTORE_FETCH_COMMAND) {
  void runRestoreFetch(process.env).then(
    (code) => (process.exitCode = code),
    (err: unknown) => {
      console.error(`restore-fetch: ${String(err)}`);
      process.exitCode = 1;
    },
  );
} else if (process.argv[2] === VOLUME_BACKUP_COMMAND) {
  void volumeBackupMain(process.env).then(
    (code) => (process.exitCode = code),
    (err: unknown) => {
      console.error(`volume-backup: ${String(err)}`);
      process.exitCode = 1;
    },
  );
} else startOperator({
  name: 'redis-operator',
  apiGroup: API_GROUP,
  loadConfig,
  wire: ({ config, manager, client, events }) => {
    const controllers = buildControllers({ informers: manager.informers, client, recorder: events, agentImage: config.agentImage }, manager.controllerOptions());
    return { controllers: [controllers.replications, controllers.users, controllers.backups, controllers.schedules] };
  },
});
