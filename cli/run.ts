// PLACEHOLDER: replaced by the helper that builds the "run" command.

/** Runs the "run" command. */
export function main(_args: string[]): Promise<number> {
  console.error('fello: the "run" command is not available yet');
  return Promise.resolve(2);
}
