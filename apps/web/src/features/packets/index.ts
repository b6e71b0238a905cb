export { usePacket, usePackets, useInactivePackets } from './api/packetQueries';
export { PacketTable } from './components/PacketTable';
export { PacketSummary } from './components/PacketSummary';
export { RadioParameters } from './components/RadioParameters';
export { EclipseInfo } from './components/EclipseInfo';
export { RawDownload } from './components/RawDownload';
export { JsonTree } from './components/JsonTree';
export { ReceivingStationsTable } from './components/ReceivingStationsTable';
export { NO_PACKETS_TEXT } from './lib/txPower';
