// PLACEHOLDER: replaced by the helper that builds the "outline" command.

/** Runs the "outline" command. */
export function main(_args: string[]): Promise<number> {
  console.error('fello: the "outline" command is not available yet');
  return Promise.resolve(2);
}
