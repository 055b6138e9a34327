// Property-test run counts: sized for CI by default, twenty times more with PROPS=long.
export const propRuns = (ci: number) => (process.env.PROPS === 'long' ? ci * 20 : ci);
