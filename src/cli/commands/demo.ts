export async function runDemo(): Promise<number> { return 0 }
