"""Drives the gateway's /v1 with the official openai SDK, as a client application would, and prints what it
saw as one JSON document for tests/api/openai_sdk.rs to check. Usage: client.py SCENARIO (chat, quota).

Environment: GATEWAY_URL (http://127.0.0.1:port), USER_TOKEN (the user's token, the SDK's api_key), for
chat QUESTION_WAV (a WAV file to transcribe), for semantic COMPLETE_PCM and INCOMPLETE_PCM (16 kHz PCM16 clips of
a complete question and of a sentence broken off)."""

import asyncio
import base64
import json
import math
import os
import sys

import openai
from openai import OpenAI

BASE = os.environ["GATEWAY_URL"] + "/v1"
client = OpenAI(base_url=BASE, api_key=os.environ["USER_TOKEN"], max_retries=0)
CONVERSATION = [
    {"role": "system", "content": "Mention the weather."},
    {"role": "user", "content": "Hi there"},
    {"role": "assistant", "content": "Hello!"},
    {"role": "user", "content": "How are you?"},
]


def failure(call):
    """The SDK's exception for a call that must fail: its class, status and error body."""
    try:
        call()
    except openai.APIStatusError as e:
        return {"class": type(e).__name__, "status": e.status_code, "body": e.body}
    return None


def chat():
    out = {"models": [m.id for m in client.models.list()]}
    whole = client.chat.completions.create(model="default", messages=CONVERSATION)
    out["whole"] = {
        "object": whole.object,
        "text": whole.choices[0].message.content,
        "role": whole.choices[0].message.role,
        "finish": whole.choices[0].finish_reason,
        "usage": whole.usage.model_dump(),
        "model": whole.model,
    }
    chunks = [
        c.model_dump()
        for c in client.chat.completions.create(
            model="local", messages=CONVERSATION, stream=True, stream_options={"include_usage": True}
        )
    ]
    out["stream"] = {
        "objects": sorted({c["object"] for c in chunks}),
        "ids": len({c["id"] for c in chunks}),
        "first_role": chunks[0]["choices"][0]["delta"]["role"],
        "text": "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks if c["choices"]),
        "finish": [c["choices"][0]["finish_reason"] for c in chunks if c["choices"]][-1],
        "last_choices": chunks[-1]["choices"],
        "usage": chunks[-1]["usage"],
    }
    # The OpenAI-compatible TTS by name, with its voice; then the user's own voice (espeak), which has no "alloy".
    wav = client.audio.speech.create(model="openai", voice="alloy", input="It is 3 °C today.", response_format="wav")
    pcm = client.audio.speech.create(model="tts-1", voice="alloy", input="It is 3 °C today.", response_format="pcm")
    # The same voice as WAV at its own rate: the PCM must last as long.
    native = client.audio.speech.create(model="tts-1", voice="alloy", input="It is 3 °C today.", response_format="wav")
    out["speech"] = {"wav": base64.b64encode(wav.content).decode(), "pcm": base64.b64encode(pcm.content).decode(),
                     "native": base64.b64encode(native.content).decode()}
    # Each offered format, and none (OpenAI's default, mp3), with the user's voice.
    out["formats"] = {}
    for fmt in ["mp3", "opus", "flac", "wav", None]:
        extra = {"response_format": fmt} if fmt else {}
        said = client.audio.speech.create(model="tts-1", voice="alloy", input="It is 3 °C today.", **extra)
        out["formats"][fmt or "default"] = {"type": said.response.headers.get("content-type"),
                                           "audio": base64.b64encode(said.content).decode()}
    with open(os.environ["QUESTION_WAV"], "rb") as f:
        question = f.read()
    heard = client.audio.transcriptions.create(model="whisper-1", file=("question.wav", question, "audio/wav"))
    verbose = client.audio.transcriptions.create(
        model="whisper-1", file=("question.wav", question, "audio/wav"), response_format="verbose_json", language="en"
    )
    out["transcription"] = {"text": heard.text, "verbose": {"text": verbose.text, "language": verbose.language,
                                                             "duration": verbose.duration}}
    wrong = OpenAI(base_url=BASE, api_key="not-a-token", max_retries=0)
    # With the SDK's own retries: a model that cannot work must be an error it does not retry.
    retrying = OpenAI(base_url=BASE, api_key=os.environ["USER_TOKEN"])
    out["errors"] = {
        "unconfigured_model": failure(lambda: retrying.chat.completions.create(model="cloud", messages=CONVERSATION)),
        "wrong_token": failure(lambda: wrong.chat.completions.create(model="default", messages=CONVERSATION)),
        "unknown_model": failure(lambda: client.chat.completions.create(model="gpt-nope", messages=CONVERSATION)),
        "aac": failure(lambda: client.audio.speech.create(model="tts-1", voice="alloy", input="Hi", response_format="aac")),
    }
    return out


def quota():
    answers = []
    for _ in range(3):
        error = failure(lambda: client.chat.completions.create(model="default", messages=CONVERSATION))
        answers.append(error or "answered")
    return {"answers": answers}


def tone(seconds, silence):
    """PCM16 at 24 kHz: a loud 220 Hz tone (the energy detector hears it as speech), then silence."""
    n, quiet = int(24000 * seconds), int(24000 * silence)
    samples = [int(8000 * math.sin(2 * math.pi * 220 * i / 24000)) for i in range(n)] + [0] * quiet
    return b"".join(s.to_bytes(2, "little", signed=True) for s in samples)


async def events_until(conn, last, on_event=None):
    """The events up to and including the first of type `last`, as dicts."""
    seen = []
    async def collect():
        async for event in conn:
            seen.append(event.model_dump())
            if on_event is not None:
                await on_event(seen[-1])
            if event.type == last:
                return
    await asyncio.wait_for(collect(), 30)
    return seen


def summary(events):
    audio = b"".join(base64.b64decode(e["delta"]) for e in events if e["type"] == "response.output_audio.delta")
    return {
        "types": [e["type"] for e in events],
        "audio_bytes": len(audio),
        "audio_peak": max((abs(int.from_bytes(audio[i:i + 2], "little", signed=True)) for i in range(0, len(audio), 2)), default=0),
        "transcript": "".join(e["delta"] for e in events if e["type"] == "response.output_audio_transcript.delta"),
        "heard": [e["transcript"] for e in events
                  if e["type"] == "conversation.item.input_audio_transcription.completed"],
        "done": [e["response"]["status"] for e in events if e["type"] == "response.done"],
    }


async def realtime_session():
    aclient = openai.AsyncOpenAI(base_url=BASE, api_key=os.environ["USER_TOKEN"], max_retries=0)
    out = {}
    async with aclient.realtime.connect(model="default") as conn:
        created = await events_until(conn, "session.created")
        out["created"] = created[-1]["session"]
        # Manual turns: the client commits and asks.
        await conn.session.update(session={"type": "realtime", "output_modalities": ["audio"],
                                           "audio": {"input": {"format": {"type": "audio/pcm", "rate": 24000},
                                                               "turn_detection": None}}})
        updated = await events_until(conn, "session.updated")
        out["updated"] = updated[-1]["session"]
        audio = tone(1.0, 0.2)
        for i in range(0, len(audio), 9600):
            await conn.input_audio_buffer.append(audio=base64.b64encode(audio[i:i + 9600]).decode())
        await conn.input_audio_buffer.commit()
        await conn.response.create()
        manual = await events_until(conn, "response.done")
        out["manual"] = summary(manual)
        # Server VAD: the gateway hears the end of the turn and answers by itself.
        await conn.session.update(session={"type": "realtime", "audio": {"input": {
            "turn_detection": {"type": "server_vad", "silence_duration_ms": 400}}}})
        await events_until(conn, "session.updated")
        audio = tone(1.0, 1.0)
        for i in range(0, len(audio), 4800):
            await conn.input_audio_buffer.append(audio=base64.b64encode(audio[i:i + 4800]).decode())
        out["vad"] = summary(await events_until(conn, "response.done"))
        # A cancel in the middle of an answer: no audio after it.
        await conn.conversation.item.create(item={"type": "message", "role": "user",
                                                  "content": [{"type": "input_text", "text": "Tell me a story."}]})
        await conn.response.create()
        cancelled = {"sent": False}

        async def cancel_on_audio(event):
            if event["type"] == "response.output_audio.delta" and not cancelled["sent"]:
                cancelled["sent"] = True
                await conn.response.cancel()
        story = await events_until(conn, "response.done", cancel_on_audio)
        out["cancel"] = summary(story)
        # Anything more would arrive within this second.
        late = []

        async def drain():
            async for event in conn:
                late.append(event.type)
        try:
            await asyncio.wait_for(drain(), 1.0)
        except asyncio.TimeoutError:
            pass
        out["after_cancel"] = late
    return out


def realtime():
    return asyncio.run(realtime_session())


async def truncate_session():
    """An answer of two sentences heard only through its first: the client truncates it there, as a client does
    when the person interrupts the playback, then asks again."""
    aclient = openai.AsyncOpenAI(base_url=BASE, api_key=os.environ["USER_TOKEN"], max_retries=0)
    out = {}
    async with aclient.realtime.connect(model="default") as conn:
        await events_until(conn, "session.created")
        await conn.session.update(session={"type": "realtime", "output_modalities": ["audio"],
                                           "audio": {"input": {"turn_detection": None}}})
        await events_until(conn, "session.updated")
        await conn.conversation.item.create(item={"type": "message", "role": "user",
                                                  "content": [{"type": "input_text", "text": "How is the weather?"}]})
        await conn.response.create()
        answer = await events_until(conn, "response.done")
        deltas = [e for e in answer if e["type"] == "response.output_audio.delta"]
        item_id = deltas[0]["item_id"]
        # PCM16 mono at 24 kHz: 48 bytes a millisecond; the first delta is the first sentence.
        first_ms = len(base64.b64decode(deltas[0]["delta"])) // 48
        out["first_ms"] = first_ms
        out["answer"] = summary(answer)
        await conn.conversation.item.truncate(item_id=item_id, content_index=0, audio_end_ms=first_ms + 50)
        truncated = await events_until(conn, "conversation.item.truncated")
        out["truncated"] = truncated[-1]
        await conn.conversation.item.truncate(item_id="item_unknown", content_index=0, audio_end_ms=10)
        out["unknown"] = (await events_until(conn, "error"))[-1]["error"]
        await conn.conversation.item.create(item={"type": "message", "role": "user",
                                                  "content": [{"type": "input_text", "text": "And tomorrow?"}]})
        await conn.response.create()
        out["next"] = summary(await events_until(conn, "response.done"))
    return out


def truncate():
    return asyncio.run(truncate_session())


def formats():
    """Every fixture format, as an application uploads a file it has: the SDK names it by its file name."""
    folder = os.environ["FORMATS_DIR"]
    heard = {}
    for name in sorted(os.listdir(folder)):
        if name.endswith((".wav", ".mp3", ".m4a", ".flac", ".ogg", ".opus", ".webm")):
            with open(os.path.join(folder, name), "rb") as f:
                heard[name] = client.audio.transcriptions.create(model="whisper-1", file=f).text
    # A note saved under an audio name.
    refused = failure(lambda: client.audio.transcriptions.create(model="whisper-1", file=("note.mp3", b"call the plumber")))
    return {"heard": heard, "note": refused}


async def g711_session():
    """A telephone's audio: µ-law in, A-law out, 8 kHz, as a phone bridge sends and plays it."""
    import audioop  # the standard library's G.711 (Python 3.11), independent of the gateway's

    aclient = openai.AsyncOpenAI(base_url=BASE, api_key=os.environ["USER_TOKEN"], max_retries=0)
    async with aclient.realtime.connect(model="default") as conn:
        await events_until(conn, "session.created")
        await conn.session.update(session={"type": "realtime", "output_modalities": ["audio"], "audio": {
            "input": {"format": {"type": "audio/pcmu"}, "turn_detection": None},
            "output": {"format": {"type": "audio/pcma"}}}})
        updated = (await events_until(conn, "session.updated"))[-1]["session"]["audio"]
        n = 8000 // 2
        linear = b"".join(int(8000 * math.sin(2 * math.pi * 220 * i / 8000)).to_bytes(2, "little", signed=True)
                          for i in range(n))
        ulaw = audioop.lin2ulaw(linear, 2)
        for i in range(0, len(ulaw), 800):
            await conn.input_audio_buffer.append(audio=base64.b64encode(ulaw[i:i + 800]).decode())
        await conn.input_audio_buffer.commit()
        await conn.response.create()
        answer = await events_until(conn, "response.done")
    alaw = b"".join(base64.b64decode(e["delta"]) for e in answer if e["type"] == "response.output_audio.delta")
    decoded = audioop.alaw2lin(alaw, 2)
    peak = max((abs(int.from_bytes(decoded[i:i + 2], "little", signed=True)) for i in range(0, len(decoded), 2)),
               default=0)
    return {"formats": {"input": updated["input"]["format"], "output": updated["output"]["format"]},
            "answer": summary(answer), "alaw_bytes": len(alaw), "decoded_peak": peak}


def g711():
    return asyncio.run(g711_session())


def clip(path, silence):
    """A 16 kHz PCM16 clip as the protocol's 24 kHz PCM16 (linear interpolation), then `silence` seconds of quiet."""
    raw = open(path, "rb").read()
    src = [int.from_bytes(raw[i:i + 2], "little", signed=True) for i in range(0, len(raw), 2)]
    out = []
    for j in range(len(src) * 3 // 2):
        x = j * 2 / 3
        k = int(x)
        nxt = src[min(k + 1, len(src) - 1)]
        out.append(int(src[k] + (nxt - src[k]) * (x - k)))
    out += [0] * int(24000 * silence)
    return b"".join(s.to_bytes(2, "little", signed=True) for s in out)


async def send_audio(conn, audio, chunk=4800):
    """Appends audio in 100 ms events, at about the pace a microphone gives it."""
    for i in range(0, len(audio), chunk):
        await conn.input_audio_buffer.append(audio=base64.b64encode(audio[i:i + chunk]).decode())
        await asyncio.sleep(0.01)


async def semantic_session():
    """semantic_vad: a complete question ends its turn at a short pause; speech over the running answer cancels
    it; a sentence broken off waits through its pause and ends at eagerness high's longest one."""
    aclient = openai.AsyncOpenAI(base_url=BASE, api_key=os.environ["USER_TOKEN"], max_retries=0)
    out = {}
    complete, incomplete = os.environ["COMPLETE_PCM"], os.environ["INCOMPLETE_PCM"]
    async with aclient.realtime.connect(model="default") as conn:
        await events_until(conn, "session.created")
        await conn.session.update(session={"type": "realtime", "output_modalities": ["audio"], "audio": {
            "input": {"turn_detection": {"type": "semantic_vad", "eagerness": "high"}}}})
        out["updated"] = (await events_until(conn, "session.updated"))[-1]["session"]
        await send_audio(conn, clip(complete, 1.0))
        # The answer runs (the model holds its second sentence); the person speaks over it.
        first = await events_until(conn, "response.output_audio.delta")
        barge = asyncio.create_task(send_audio(conn, clip(incomplete, 0.0)))
        cancelled = await events_until(conn, "response.done")
        await barge
        out["first"] = summary(first + cancelled)
        # The sentence broken off, then silence: the turn waits through the pause and ends at the longest.
        await send_audio(conn, bytes(24000 * 2 * 3))
        out["second"] = summary(await events_until(conn, "response.done"))
    return out


def semantic():
    return asyncio.run(semantic_session())


async def help_session():
    """Help by voice: a call for help is asked back, and the yes raises the alarm; both are spoken answers."""
    aclient = openai.AsyncOpenAI(base_url=BASE, api_key=os.environ["USER_TOKEN"], max_retries=0)
    out = []
    async with aclient.realtime.connect(model="default") as conn:
        await events_until(conn, "session.created")
        await conn.session.update(session={"type": "realtime", "audio": {"input": {"turn_detection": None}}})
        await events_until(conn, "session.updated")
        for _ in range(2):
            await send_audio(conn, tone(0.5, 0.1), 9600)
            await conn.input_audio_buffer.commit()
            await conn.response.create()
            out.append(summary(await events_until(conn, "response.done")))
    return out


def help_by_voice():
    return asyncio.run(help_session())


def help_typed():
    """A typed call for help, its "ja" streamed, then a harmless question: what each answer said."""
    asked = client.chat.completions.create(model="default",
                                           messages=[{"role": "user", "content": "Hilfe, ich bin gestürzt!"}])
    stream = client.chat.completions.create(model="default", stream=True, messages=[
        {"role": "user", "content": "Hilfe, ich bin gestürzt!"},
        {"role": "assistant", "content": asked.choices[0].message.content},
        {"role": "user", "content": "ja"},
    ])
    answered = "".join(chunk.choices[0].delta.content or "" for chunk in stream if chunk.choices)
    harmless = client.chat.completions.create(model="default", messages=[
        {"role": "user", "content": "Kannst du mir beim Rezept helfen?"}])
    return {"asked": asked.choices[0].message.content, "answered": answered,
            "harmless": harmless.choices[0].message.content}


print(json.dumps({"chat": chat, "quota": quota, "realtime": realtime, "truncate": truncate, "semantic": semantic,
                  "help": help_by_voice, "help_typed": help_typed, "formats": formats, "g711": g711}[sys.argv[1]]()))
