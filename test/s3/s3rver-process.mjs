// s3rver in a process of its own, for test/s3/s3rver.ts: the tests' stand-in for S3 is not the portal's code, and its
// logging dependencies (chalk 2, @colors/colors through winston) set prototypes through `__proto__`, which the portal's
// processes refuse (--disable-proto=throw). Arguments: port (0: any free one), directory, bucket, and the bucket's
// configuration documents as a JSON array (CORS). Prints
// `{"port": N}` once it listens; stops when its standard input closes (the test process ended or stopped it).
import S3rver from "s3rver";

const [port, directory, bucket, configs] = process.argv.slice(2);
const server = new S3rver({
  port: Number(port),
  address: "127.0.0.1",
  silent: true,
  directory,
  configureBuckets: [{ name: bucket, configs: JSON.parse(configs ?? "[]") }],
});
const listening = await server.run();
process.stdout.write(`${JSON.stringify({ port: listening.port })}\n`);
process.stdin.resume();
process.stdin.on("end", () => {
  server.close().then(() => process.exit(0));
});
