// The InputError a call must throw; any other outcome fails the test.
import { InputError } from '../../common/input-error.ts';

export function inputErrorOf(f: () => unknown): InputError {
  try {
    f();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected an InputError');
}
