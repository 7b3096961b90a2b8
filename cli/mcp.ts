// PLACEHOLDER: replaced by the helper that builds the "mcp" command.

/** Runs the "mcp" command. */
export function main(_args: string[]): Promise<number> {
  console.error('fello: the "mcp" command is not available yet');
  return Promise.resolve(2);
}
