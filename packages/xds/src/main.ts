// Entry point of the oooi-xds process (bundled into its container image).
console.error('oooi-xds: not implemented yet');
process.exitCode = 1;
