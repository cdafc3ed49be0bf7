#!/usr/bin/python3
"""Train a small CNN on sklearn's 8x8 digits and export it to ONNX.

Writes, next to this script:
  digits.onnx      input "image" f32[1,1,8,8] -> output "probs" f32[1,10] (softmax)
  digits_test.bin  the held-out 20% split: "DIGT", u32 N, then N x (64 f32 pixels in
                   [0,1], u8 label), little-endian

Usage: /usr/bin/python3 examples/digits/train.py [--epochs N]
"""
import argparse
import os
import random
import struct

import numpy as np
import onnx
import torch
import torch.nn as nn
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 0


class DigitsNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, kernel_size=3, padding=1),  # 16x8x8
            nn.ReLU(),
            nn.MaxPool2d(2),                              # 16x4x4
            nn.Conv2d(16, 32, kernel_size=3, padding=1),  # 32x4x4
            nn.ReLU(),
            nn.MaxPool2d(2),                              # 32x2x2
        )
        self.classifier = nn.Sequential(
            nn.Flatten(),
            nn.Linear(32 * 2 * 2, 64),
            nn.ReLU(),
            nn.Linear(64, 10),
        )

    def forward(self, x):
        return self.classifier(self.features(x))  # logits


class WithSoftmax(nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, image):
        return torch.softmax(self.net(image), dim=-1)


def write_test_set(path, x, y):
    with open(path, "wb") as f:
        f.write(b"DIGT")
        f.write(struct.pack("<I", len(x)))
        for pixels, label in zip(x, y):
            f.write(pixels.astype("<f4").tobytes())
            f.write(struct.pack("<B", int(label)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=30)
    args = ap.parse_args()

    random.seed(SEED)
    np.random.seed(SEED)
    torch.manual_seed(SEED)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(1)

    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32)  # (1797, 64) in [0, 1]
    y = digits.target.astype(np.int64)
    x_train, x_test, y_train, y_test = train_test_split(
        x, y, test_size=0.2, random_state=SEED, stratify=y)

    xt = torch.from_numpy(x_train).reshape(-1, 1, 8, 8)
    yt = torch.from_numpy(y_train)
    xv = torch.from_numpy(x_test).reshape(-1, 1, 8, 8)
    yv = torch.from_numpy(y_test)

    net = DigitsNet()
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    loss_fn = nn.CrossEntropyLoss()
    gen = torch.Generator().manual_seed(SEED)
    batch = 64
    for epoch in range(args.epochs):
        net.train()
        perm = torch.randperm(len(xt), generator=gen)
        total = 0.0
        for i in range(0, len(xt), batch):
            idx = perm[i:i + batch]
            opt.zero_grad()
            loss = loss_fn(net(xt[idx]), yt[idx])
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1:3d}  train loss {total / len(xt):.4f}")

    net.eval()
    with torch.no_grad():
        pred = net(xv).argmax(dim=1)
    correct = int((pred == yv).sum())
    print(f"test accuracy: {correct / len(yv):.4f} ({correct}/{len(yv)})")

    model = WithSoftmax(net).eval()
    onnx_path = os.path.join(HERE, "digits.onnx")
    torch.onnx.export(model, torch.zeros(1, 1, 8, 8), onnx_path,
                      input_names=["image"], output_names=["probs"],
                      opset_version=13, do_constant_folding=True)
    m = onnx.load(onnx_path)
    onnx.checker.check_model(m, full_check=True)
    ops = sorted({n.op_type for n in m.graph.node})
    print(f"wrote {onnx_path} ({os.path.getsize(onnx_path)} bytes), ops: {', '.join(ops)}")

    test_path = os.path.join(HERE, "digits_test.bin")
    write_test_set(test_path, x_test, y_test)
    print(f"wrote {test_path} ({len(x_test)} images)")


if __name__ == "__main__":
    main()
