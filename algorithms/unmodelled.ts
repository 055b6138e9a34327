// A decision rule that picks an algorithm this library does not model (Open MPI 4.1's tuned
// broadcast picks two). That is a gap of the library for that size and rank count, not a bug and not
// the user's typing: the scenario runner reports the cell as n/a with this message, as it does for a
// kernel mechanism the machine lacks, and the other cells still run.

export class UnmodelledChoiceError extends Error {
  override name = 'UnmodelledChoiceError';
}
