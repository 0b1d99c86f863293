/** Writes one timestamped line to stdout (the runner's log file). Never throws. */
export function log(message: string): void {
  process.stdout.write(`${new Date().toISOString()} ${message}\n`);
}
