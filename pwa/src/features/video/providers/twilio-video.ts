/**
 * The Twilio Video SDK, loaded only through a dynamic import of this module so it becomes its own chunk
 * named twilio-video-*.js (kept out of the main bundle and out of the service worker's precache).
 */
export { connect } from 'twilio-video';
export type { Room, RemoteParticipant, RemoteTrack, LocalTrack } from 'twilio-video';
