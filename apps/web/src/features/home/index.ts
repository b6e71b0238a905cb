export { useCarouselPhotos } from './api/useCarouselPhotos';
export { PhotoCarousel } from './components/PhotoCarousel';
export { HomeIntro } from './components/HomeIntro';
export { GetStarted } from './components/GetStarted';
