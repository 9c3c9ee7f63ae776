"""Drives the gateway's Wyoming server with the reference client (`wyoming` 1.10.2), as Home Assistant's
`wyoming` integration does (a new connection for every request), and prints what it saw as one JSON document
for tests/api/wyoming.rs to check. Usage: client.py SCENARIO (describe, transcribe, early, synthesize, handle,
help, malformed).

Environment: WYOMING_PORT (the server's port on 127.0.0.1); for early, COMPLETE_PCM (a 16 kHz PCM16 clip of a
complete question)."""

import asyncio
import json
import math
import os
import sys

from wyoming.asr import Transcribe, Transcript
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.client import AsyncTcpClient
from wyoming.error import Error
from wyoming.handle import Handled, NotHandled
from wyoming.info import Describe, Info
from wyoming.ping import Ping, Pong
from wyoming.tts import (
    Synthesize,
    SynthesizeChunk,
    SynthesizeStart,
    SynthesizeStop,
    SynthesizeStopped,
    SynthesizeVoice,
)

PORT = int(os.environ["WYOMING_PORT"])
TIMEOUT = 30


def client():
    return AsyncTcpClient("127.0.0.1", PORT)


async def read(c):
    event = await asyncio.wait_for(c.read_event(), TIMEOUT)
    if event is not None and Error.is_type(event.type):
        raise RuntimeError(f"error event: {event.data}")
    return event


async def describe():
    async with client() as c:
        await c.write_event(Describe().event())
        info = Info.from_event(await read(c))
    async with client() as c:
        await c.write_event(Ping(text="hello").event())
        pong = Pong.from_event(await read(c))
    asr, tts, handle = info.asr[0], info.tts[0], info.handle[0]
    return {
        "asr": {
            "name": asr.name,
            "attribution": asr.attribution.name,
            "installed": asr.installed,
            "languages": asr.models[0].languages,
            "requires_external_vad": asr.requires_external_vad,
            "supports_transcript_streaming": asr.supports_transcript_streaming,
        },
        "tts": {
            "name": tts.name,
            "installed": tts.installed,
            "streaming": tts.supports_synthesize_streaming,
            "voices": {v.name: v.languages for v in tts.voices},
            "voices_installed": all(v.installed for v in tts.voices),
        },
        "handle": {
            "name": handle.name,
            "languages": handle.models[0].languages,
            "streaming": handle.supports_handled_streaming,
        },
        "pong": pong.text,
    }


async def transcribe():
    """Two seconds of stereo at 44.1 kHz, in 10 ms chunks as Home Assistant sends them."""
    rate, channels = 44100, 2
    async with client() as c:
        await c.write_event(Transcribe(language="en").event())
        await c.write_event(AudioStart(rate=rate, width=2, channels=channels).event())
        per_chunk = rate // 100
        for n in range(200):
            frames = b"".join(
                int(8000 * math.sin(2 * math.pi * 440 * (n * per_chunk + i) / rate)).to_bytes(2, "little", signed=True)
                * channels
                for i in range(per_chunk)
            )
            await c.write_event(AudioChunk(rate=rate, width=2, channels=channels, audio=frames).event())
        await c.write_event(AudioStop().event())
        transcript = Transcript.from_event(await read(c))
    return {"text": transcript.text, "language": transcript.language}


async def early():
    """A satellite's stream: a question, then the room's quiet, in 20 ms chunks at the pace of a microphone. The
    transcript comes while the audio still flows, before audio-stop; audio-stop then adds nothing."""
    rate = 16000
    audio = open(os.environ["COMPLETE_PCM"], "rb").read() + bytes(2 * rate * 3)
    per_chunk = 2 * rate // 50
    transcript, sent_before = None, 0
    async with client() as c:
        await c.write_event(Transcribe(language="en").event())
        await c.write_event(AudioStart(rate=rate, width=2, channels=1).event())
        reading = asyncio.ensure_future(read(c))
        for i in range(0, len(audio), per_chunk):
            if reading.done():
                break
            await c.write_event(AudioChunk(rate=rate, width=2, channels=1, audio=audio[i:i + per_chunk]).event())
            sent_before += 1
            await asyncio.sleep(0.02)
        event = await asyncio.wait_for(reading, TIMEOUT)
        transcript = Transcript.from_event(event)
        await c.write_event(AudioStop().event())
        try:
            after = await asyncio.wait_for(c.read_event(), 1.0)
            after = after.type if after is not None else None
        except asyncio.TimeoutError:
            after = None
    return {"text": transcript.text, "chunks_before": sent_before, "chunks_in_all": len(audio) // per_chunk,
            "after_stop": after}


async def audio_until(c, last):
    """Events up to the one of type `last`: their types, the formats of the audio, its bytes."""
    types, formats, audio = [], set(), 0
    while True:
        event = await read(c)
        types.append(event.type)
        if AudioStart.is_type(event.type) or AudioChunk.is_type(event.type):
            chunk = event.data
            formats.add((chunk["rate"], chunk["width"], chunk["channels"]))
        if AudioChunk.is_type(event.type):
            audio += len(event.payload or b"")
        if event.type == last:
            return {"types": types, "formats": sorted(formats), "bytes": audio}


async def synthesize():
    text = "Hello there. How are you today?"
    async with client() as c:
        await c.write_event(Synthesize(text=text, voice=SynthesizeVoice(language="en")).event())
        whole = await audio_until(c, "audio-stop")
    async with client() as c:
        await c.write_event(SynthesizeStart(voice=SynthesizeVoice(name="espeak/en")).event())
        # Deltas not aligned to sentences, as Home Assistant sends the language model's tokens.
        await c.write_event(SynthesizeChunk(text="Hello the").event())
        await c.write_event(SynthesizeChunk(text="re. How are").event())
        # The first sentence is complete: its audio comes before the request ends.
        first = await read(c)
        await c.write_event(SynthesizeChunk(text=" you today?").event())
        # The whole text once more, which must not be spoken again.
        await c.write_event(Synthesize(text=text, voice=SynthesizeVoice(name="espeak/en")).event())
        await c.write_event(SynthesizeStop().event())
        streamed = await audio_until(c, SynthesizeStopped().event().type)
        streamed["types"].insert(0, first.type)
    return {"whole": whole, "streamed": streamed, "first_before_stop": first.type}


async def handle():
    """Two questions in one conversation, in HANDLE_LANGUAGE (en unless it says otherwise)."""
    answers = []
    language = os.environ.get("HANDLE_LANGUAGE", "en")
    for text in ["What is my name?", "And again?"]:
        async with client() as c:
            await c.write_event(
                Transcript(text=text, language=language, context={"conversation_id": "ha-conv-1"}).event()
            )
            event = await read(c)
        if Handled.is_type(event.type):
            h = Handled.from_event(event)
            answers.append({"type": event.type, "text": h.text, "context": h.context})
        else:
            answers.append({"type": event.type, "text": NotHandled.from_event(event).text})
    return {"answers": answers}


async def help():
    """A call for help from a satellite, then the yes (HELP_TEXTS, a JSON list, may say otherwise), in one
    conversation (HELP_CONVERSATION), each on its own connection."""
    answers = []
    texts = json.loads(os.environ.get("HELP_TEXTS", '["Hilfe! Hilfe!", "Ja, bitte."]'))
    conversation = os.environ.get("HELP_CONVERSATION", "ha-help")
    for text in texts:
        async with client() as c:
            await c.write_event(Transcript(text=text, language="de", context={"conversation_id": conversation}).event())
            event = await read(c)
        answers.append({"type": event.type, "text": event.data.get("text")})
    return {"answers": answers}


async def malformed():
    async with client() as good, client() as bad:
        await good.write_event(Ping(text="before").event())
        before = Pong.from_event(await read(good)).text
        bad._writer.write(b"this is not json\n")
        await bad._writer.drain()
        closed = await asyncio.wait_for(bad.read_event(), TIMEOUT) is None
        await good.write_event(Ping(text="after").event())
        after = Pong.from_event(await read(good)).text
    async with client() as huge:
        huge._writer.write(b'{"type": "audio-chunk", "payload_length": 1000000000}\n')
        await huge._writer.drain()
        huge_closed = await asyncio.wait_for(huge.read_event(), TIMEOUT) is None
    async with client() as c:
        await c.write_event(Describe().event())
        served = Info.is_type((await read(c)).type)
    return {"before": before, "bad_closed": closed, "after": after, "huge_closed": huge_closed, "served": served}


SCENARIOS = {f.__name__: f for f in [describe, transcribe, early, synthesize, handle, help, malformed]}

if __name__ == "__main__":
    print(json.dumps(asyncio.run(SCENARIOS[sys.argv[1]]())))
