// Placeholder entry; the codec lands here.
export function version(): i32 {
  return 1;
}
