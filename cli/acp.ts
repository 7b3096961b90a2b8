// PLACEHOLDER: replaced by the helper that builds the "acp" command.

/** Runs the "acp" command. */
export function main(_args: string[]): Promise<number> {
  console.error('fello: the "acp" command is not available yet');
  return Promise.resolve(2);
}
