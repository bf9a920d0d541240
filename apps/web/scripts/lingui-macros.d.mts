export function transformLinguiMacros(
  code: string,
  filename: string,
): Promise<{ code: string; map: import('@babel/core').BabelFileResult['map'] } | null>;
