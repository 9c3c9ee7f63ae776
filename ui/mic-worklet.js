// Captures microphone audio and posts it as 16-bit PCM at 16 kHz in pieces of about 100 ms.
class PcmCapture extends AudioWorkletProcessor {
  constructor() {
    super();
    this.ratio = sampleRate / 16000;
    this.pos = 0;
    this.out = [];
  }
  process(inputs) {
    const input = inputs[0] && inputs[0][0];
    if (!input) return true;
    // Plain decimation with averaging: enough for speech recognition.
    for (; this.pos < input.length; this.pos += this.ratio) {
      const i = Math.floor(this.pos);
      const s = Math.max(-1, Math.min(1, input[i]));
      this.out.push(s < 0 ? s * 0x8000 : s * 0x7fff);
    }
    this.pos -= input.length;
    if (this.out.length >= 1600) {
      this.port.postMessage(Int16Array.from(this.out).buffer);
      this.out = [];
    }
    return true;
  }
}
registerProcessor('pcm-capture', PcmCapture);
