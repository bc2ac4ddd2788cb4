// Entry point of the oooi-controller process (bundled into its container image).
console.error('oooi-controller: not implemented yet');
process.exitCode = 1;
