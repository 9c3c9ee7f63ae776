"""Drives the gateway's /v1 with the official openai SDK, as a client application would, and prints what it
saw as one JSON document for tests/api/openai_sdk.rs to check. Usage: client.py SCENARIO (chat, quota).

Environment: GATEWAY_URL (http://127.0.0.1:port), USER_TOKEN (the user's token, the SDK's api_key) and, for
chat, QUESTION_WAV (a WAV file to transcribe)."""

import base64
import json
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
    out["speech"] = {"wav": base64.b64encode(wav.content).decode(), "pcm": base64.b64encode(pcm.content).decode()}
    with open(os.environ["QUESTION_WAV"], "rb") as f:
        question = f.read()
    heard = client.audio.transcriptions.create(model="whisper-1", file=("question.wav", question, "audio/wav"))
    verbose = client.audio.transcriptions.create(
        model="whisper-1", file=("question.wav", question, "audio/wav"), response_format="verbose_json", language="en"
    )
    out["transcription"] = {"text": heard.text, "verbose": {"text": verbose.text, "language": verbose.language,
                                                             "duration": verbose.duration}}
    wrong = OpenAI(base_url=BASE, api_key="not-a-token", max_retries=0)
    out["errors"] = {
        "wrong_token": failure(lambda: wrong.chat.completions.create(model="default", messages=CONVERSATION)),
        "unknown_model": failure(lambda: client.chat.completions.create(model="gpt-nope", messages=CONVERSATION)),
        "mp3": failure(lambda: client.audio.speech.create(model="tts-1", voice="alloy", input="Hi", response_format="mp3")),
    }
    return out


def quota():
    answers = []
    for _ in range(3):
        error = failure(lambda: client.chat.completions.create(model="default", messages=CONVERSATION))
        answers.append(error or "answered")
    return {"answers": answers}


print(json.dumps({"chat": chat, "quota": quota}[sys.argv[1]]()))
