// Pictures are scaled in the browser before upload (SPEC.md section 5: width 1080, thumbnails 150)
// so phones do not send 12-megapixel originals over mobile data.
import { PICTURE_WIDTH_PX, THUMBNAIL_WIDTH_PX } from '@tinygs/contracts';

export interface PreparedPicture {
  /** what is uploaded: at most PICTURE_WIDTH_PX wide */
  upload: Blob;
  fileName: string;
  /** data URL at most THUMBNAIL_WIDTH_PX wide for the edit list, null when it cannot be drawn */
  thumbnail: string | null;
}

function outputType(file: File): string {
  return file.type === 'image/png' || file.type === 'image/webp' ? file.type : 'image/jpeg';
}

function draw(image: ImageBitmap, widthPx: number): HTMLCanvasElement | null {
  const scale = Math.min(1, widthPx / image.width);
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(image.width * scale));
  canvas.height = Math.max(1, Math.round(image.height * scale));
  const context = canvas.getContext('2d');
  if (!context) return null;
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  return canvas;
}

function toBlob(canvas: HTMLCanvasElement, type: string): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, type, 0.9));
}

function renamed(name: string, type: string): string {
  const ext = type === 'image/png' ? 'png' : type === 'image/webp' ? 'webp' : 'jpg';
  const base = name.replace(/\.[^./\\]+$/, '') || 'picture';
  return `${base}.${ext}`;
}

/**
 * Scales a picture down to PICTURE_WIDTH_PX (never up) and makes a thumbnail. Where the browser
 * cannot decode or draw the file the original is uploaded unchanged and the server resizes it.
 */
export async function preparePicture(file: File): Promise<PreparedPicture> {
  let image: ImageBitmap | null = null;
  try {
    image = await createImageBitmap(file);
    const type = outputType(file);
    const full = draw(image, PICTURE_WIDTH_PX);
    const small = draw(image, THUMBNAIL_WIDTH_PX);
    const blob = full ? await toBlob(full, type) : null;
    return {
      upload: blob ?? file,
      fileName: blob ? renamed(file.name, type) : file.name,
      thumbnail: small ? small.toDataURL('image/jpeg', 0.8) : null,
    };
  } catch {
    return { upload: file, fileName: file.name, thumbnail: null };
  } finally {
    image?.close();
  }
}
