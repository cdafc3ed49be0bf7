#!/usr/bin/python3
"""Export reference models to ONNX with torch.onnx.export, for dlc's model tests.

  /usr/bin/python3 scripts/models/export_models.py OUTDIR [--only NAME ...] [--batch N]
                                   [--dynamic-batch | --symbolic] [--force] [--list]

Writes OUTDIR/NAME.onnx (OUTDIR/NAME_bN.onnx for --batch N other than 1: the same
weights, a static batch of N; OUTDIR/NAME_dyn.onnx for --dynamic-batch: a symbolic
batch 'N'; OUTDIR/NAME_sym.onnx for --symbolic: the model's symbolic dimensions,
'batch', 'height' and 'width' of images, 'batch' and 'seq' of bert, 'seq' of gpt,
'batch' of scripted;
the shapes below are for batch 1) for each model (all of them, or the --only ones) and skips
files that already exist and are newer than this script (--force re-exports). Files are written under a temporary
name and renamed, so concurrent runs (lit runs tests in parallel) never see a partial
model. OUTDIR is a build directory: resnet50 is ~100 MB.

Models (random weights, torch.manual_seed(0) before each model is built, so a model
is the same whether exported alone or with the others; eval mode; static shapes;
opset 17, or the highest below it that torch can export; do_constant_folding=True):

  resnet18, resnet50, mobilenet_v2, efficientnet_b0
      torchvision 0.14 architectures (weights=None), input "input" f32[1,3,224,224],
      output "logits" f32[1,1000]. BatchNorm running statistics are calibrated on a
      few random batches (train-mode forward passes, cumulative average) before
      switching to eval mode, so activations keep a trained-network-like scale
      instead of growing through every block (BN with mean 0 / var 1 is a no-op).
  bert
      a BERT-style encoder in plain torch: vocab 1000, seq 128, hidden 128, 2 layers,
      4 heads, FFN 512; token (nn.Embedding -> Gather) + learned position embedding,
      LayerNorm, multi-head self-attention (MatMul, scale, additive mask, Softmax),
      GELU (erf, nn.GELU()), residuals, post-LN; a tanh pooler on the first token
      and a 2-way classifier. Inputs "input_ids" i64[1,128] and "attention_mask"
      bool[1,128] (True = attend); outputs "last_hidden_state" f32[1,128,128] and
      "logits" f32[1,2]. Sizes come from the input, as in gpt.
  gpt
      a GPT-style decoder in plain torch: vocab 1000, up to 128 positions, hidden 128,
      2 pre-LN blocks of causal self-attention (one fused QKV Linear split in three,
      a tril mask buffer sliced to the sequence, masked_fill with -inf -> Where) and a
      GELU (tanh) MLP; a final LayerNorm and an LM head. Input "input_ids" i64[1,64];
      output "logits" f32[1,64,1000]. Written for any sequence length: shapes come
      from the input (Shape -> Gather -> Concat -> Reshape, Slice of the position ids
      and of the mask), as Hugging Face models export.
  transformer
      torch's own nn.TransformerEncoder (2 layers of nn.TransformerEncoderLayer: d_model 64,
      4 heads, FFN 128, ReLU, post-LN, batch_first) over nn.Embedding(1000, 64) tokens, with a
      key padding mask, and a Linear(64, 2) head on the first token. Inputs "input_ids"
      i64[1,32] and "padding_mask" bool[1,32] (True = padding); output "logits" f32[1,2].
      The export computes Expand shapes with Where(Equal(ConstantOfShape ...)) over
      constants: dlc evaluates them at compile time.
  scripted
      control flow on data through torch.jit.script (TorchScript): Linear(16, 16)
      steps h = tanh(Linear(h)) + h repeated `steps` times (a Loop whose trip count
      is the input "steps" i64[]), then h halved while max |h| > 2 (a Loop on a data
      condition), then Linear(16, 4)(h) if mean(h) > 0 else Linear(16, 4)(relu(h))
      (an If on data). Input "x" f32[1,16]; output "y" f32[1,4]; --symbolic: a
      symbolic batch.
  ssdlite (only with --only)
      torchvision's ssdlite320_mobilenet_v3_large detector (weights=None; BatchNorm
      calibrated through backbone and heads):
      input "images" f32[3,240,280] (one image; --symbolic: 'height', 'width'),
      outputs "boxes" f32[N,4], "scores" f32[N], "labels" i64[N] with N
      data-dependent (at most 300): NonZero, TopK with a computed k, Concat of 90
      per-class selections, NonMaxSuppression inside an If.
  lstm
      nn.LSTM(input 32, hidden 64, 2 layers, batch_first) over x f32[1,16,32] and a
      Linear(64, 10) head on the last time step: output "logits" f32[1,10].
"""
import argparse
import math
import os
import sys
import tempfile
import warnings

import torch
import torch.nn as nn

OPSETS = (17, 16, 15, 14, 13, 12, 11)  # tried in this order
SEED = 0


# ---------------------------------------------------------------------------
# BERT-style encoder


class SelfAttention(nn.Module):
    def __init__(self, hidden, heads, seq):
        super().__init__()
        self.heads, self.head_dim, self.seq = heads, hidden // heads, seq
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, hidden)

    def split(self, x):  # [B, S, H*D] -> [B, H, S, D]
        return x.view(x.shape[0], x.shape[1], self.heads, self.head_dim).transpose(1, 2)

    def forward(self, x, mask_bias):
        q, k, v = self.split(self.query(x)), self.split(self.key(x)), self.split(self.value(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_dim)
        probs = torch.softmax(scores + mask_bias, dim=-1)
        ctx = torch.matmul(probs, v).transpose(1, 2).reshape(x.shape[0], x.shape[1], -1)
        return self.out(ctx)


class EncoderLayer(nn.Module):
    def __init__(self, hidden, heads, ffn, seq):
        super().__init__()
        self.attn = SelfAttention(hidden, heads, seq)
        self.ln1 = nn.LayerNorm(hidden, eps=1e-12)
        self.ffn = nn.Sequential(nn.Linear(hidden, ffn), nn.GELU(), nn.Linear(ffn, hidden))
        self.ln2 = nn.LayerNorm(hidden, eps=1e-12)

    def forward(self, x, mask_bias):
        x = self.ln1(x + self.attn(x, mask_bias))
        return self.ln2(x + self.ffn(x))


class BertEncoder(nn.Module):
    def __init__(self, vocab=1000, seq=128, hidden=128, layers=2, heads=4, ffn=512, classes=2):
        super().__init__()
        self.tok = nn.Embedding(vocab, hidden)
        self.pos = nn.Embedding(seq, hidden)
        self.register_buffer("position_ids", torch.arange(seq).unsqueeze(0), persistent=False)
        self.ln = nn.LayerNorm(hidden, eps=1e-12)
        self.layers = nn.ModuleList(EncoderLayer(hidden, heads, ffn, seq) for _ in range(layers))
        self.pooler = nn.Linear(hidden, hidden)
        self.classifier = nn.Linear(hidden, classes)

    def forward(self, input_ids, attention_mask):
        # Positions of the first S tokens (a symbolic sequence slices them).
        positions = self.position_ids[:, :input_ids.shape[1]]
        x = self.ln(self.tok(input_ids) + self.pos(positions))
        # [B, S] bool -> additive bias [B, 1, 1, S]: 0 where attended, -10000 where masked.
        mask_bias = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * -10000.0
        for layer in self.layers:
            x = layer(x, mask_bias)
        pooled = torch.tanh(self.pooler(x[:, 0]))
        return x, self.classifier(pooled)


# ---------------------------------------------------------------------------
# GPT-style decoder


class CausalSelfAttention(nn.Module):
    def __init__(self, hidden, heads, max_seq):
        super().__init__()
        self.heads, self.head_dim = heads, hidden // heads
        self.qkv = nn.Linear(hidden, 3 * hidden)
        self.proj = nn.Linear(hidden, hidden)
        causal = torch.tril(torch.ones(max_seq, max_seq, dtype=torch.bool))
        self.register_buffer("causal", causal.view(1, 1, max_seq, max_seq), persistent=False)

    def forward(self, x):
        b, s, c = x.shape
        q, k, v = self.qkv(x).split(c, dim=2)
        q, k, v = (t.view(b, s, self.heads, self.head_dim).transpose(1, 2) for t in (q, k, v))
        att = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_dim)
        att = att.masked_fill(~self.causal[:, :, :s, :s], float("-inf"))
        y = torch.matmul(torch.softmax(att, dim=-1), v)
        return self.proj(y.transpose(1, 2).reshape(b, s, c))


class GptBlock(nn.Module):
    def __init__(self, hidden, heads, max_seq):
        super().__init__()
        self.ln1 = nn.LayerNorm(hidden)
        self.attn = CausalSelfAttention(hidden, heads, max_seq)
        self.ln2 = nn.LayerNorm(hidden)
        self.mlp = nn.Sequential(nn.Linear(hidden, 4 * hidden), nn.GELU(approximate="tanh"),
                                 nn.Linear(4 * hidden, hidden))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class GptDecoder(nn.Module):
    def __init__(self, vocab=1000, max_seq=128, hidden=128, layers=2, heads=4):
        super().__init__()
        self.tok = nn.Embedding(vocab, hidden)
        self.pos = nn.Embedding(max_seq, hidden)
        self.register_buffer("position_ids", torch.arange(max_seq).unsqueeze(0), persistent=False)
        self.blocks = nn.ModuleList(GptBlock(hidden, heads, max_seq) for _ in range(layers))
        self.ln_f = nn.LayerNorm(hidden)
        self.head = nn.Linear(hidden, vocab, bias=False)

    def forward(self, input_ids):
        positions = self.position_ids[:, :input_ids.shape[1]]
        x = self.tok(input_ids) + self.pos(positions)
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln_f(x))


# ---------------------------------------------------------------------------
# torch's nn.TransformerEncoder


class TorchTransformer(nn.Module):
    # Without autograd, nn.TransformerEncoderLayer takes a fused fast path
    # (aten::_transformer_encoder_layer_fwd) that the exporter cannot
    # translate: export it as users do, outside torch.no_grad().
    trace_with_grad = True

    def __init__(self, vocab=1000, hidden=64, heads=4, ffn=128, layers=2, classes=2):
        super().__init__()
        self.tok = nn.Embedding(vocab, hidden)
        layer = nn.TransformerEncoderLayer(hidden, heads, ffn, dropout=0.0, batch_first=True)
        # No nested-tensor fast path: the exporter cannot trace it.
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.head = nn.Linear(hidden, classes)

    def forward(self, input_ids, padding_mask):
        x = self.encoder(self.tok(input_ids), src_key_padding_mask=padding_mask)
        return self.head(x[:, 0])


# ---------------------------------------------------------------------------
# LSTM and GRU


class RecurrentNet(nn.Module):
    """A 2-layer recurrent network (`cell`: nn.LSTM or nn.GRU) and a linear
    head on its last step."""

    def __init__(self, cell, inputs=32, hidden=64, layers=2, classes=10):
        super().__init__()
        self.rnn = cell(inputs, hidden, num_layers=layers, batch_first=True)
        self.head = nn.Linear(hidden, classes)

    def forward(self, x):
        y, _ = self.rnn(x)
        return self.head(y[:, -1])


class Mlp(nn.Module):
    def __init__(self, inputs=784, hidden=512, classes=10):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(inputs, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, classes))

    def forward(self, x):
        return self.net(x)


# ---------------------------------------------------------------------------


class ScriptedControlFlow(nn.Module):
    """Control flow on data, as torch.jit.script exports it: a loop whose trip
    count is an input, a while loop on a data condition, an if on data."""

    def __init__(self, features=16, classes=4):
        super().__init__()
        self.step = nn.Linear(features, features)
        self.pos = nn.Linear(features, classes)
        self.neg = nn.Linear(features, classes)

    def forward(self, x, steps):
        h = x
        for _ in range(int(steps)):
            h = torch.tanh(self.step(h)) + h
        while bool(h.abs().max() > 2.0):
            h = h * 0.5
        if bool(h.mean() > 0):
            y = self.pos(h)
        else:
            y = self.neg(torch.relu(h))
        return y


def calibrate_batchnorm(model, make_batch, batches=2):
    """Sets BN running statistics from train-mode passes over random batches."""
    bns = [m for m in model.modules() if isinstance(m, nn.modules.batchnorm._BatchNorm)]
    for bn in bns:
        bn.reset_running_stats()
        bn.momentum = None  # cumulative moving average
    model.train()
    with torch.no_grad():
        for _ in range(batches):
            model(make_batch())
    model.eval()


# GoogLeNet without its training-only auxiliary heads, initialized as the
# others (its own initialization is slow and warns).
TORCHVISION_ARGS = {"googlenet": {"aux_logits": False, "init_weights": False}}


def torchvision_model(arch):
    def build(batch):
        import torchvision
        model = getattr(torchvision.models, arch)(weights=None,
                                                  **TORCHVISION_ARGS.get(arch, {}))
        calibrate_batchnorm(model, lambda: torch.rand(4, 3, 224, 224))
        return model, (torch.rand(batch, 3, 224, 224),), ["input"], ["logits"]
    return build


def bert(batch):
    model = BertEncoder().eval()
    ids = torch.randint(0, 1000, (batch, 128), dtype=torch.int64)
    mask = torch.ones(batch, 128, dtype=torch.bool)
    return model, (ids, mask), ["input_ids", "attention_mask"], ["last_hidden_state", "logits"]


def gpt(batch):
    ids = torch.randint(0, 1000, (batch, 64), dtype=torch.int64)
    return GptDecoder().eval(), (ids,), ["input_ids"], ["logits"]


def transformer(batch):
    ids = torch.randint(0, 1000, (batch, 32), dtype=torch.int64)
    mask = torch.zeros(batch, 32, dtype=torch.bool)
    mask[:, 24:] = True
    return TorchTransformer().eval(), (ids, mask), ["input_ids", "padding_mask"], ["logits"]


def scripted(batch):
    model = torch.jit.script(ScriptedControlFlow().eval())
    return model, (torch.rand(batch, 16), torch.tensor(3)), ["x", "steps"], ["y"]


def ssdlite(batch):
    """torchvision's SSDlite320-MobileNetV3 detector (weights=None): its
    transform resizes any image to 320x320, the post-processing selects
    scores per class (NonZero), keeps the best 300 of each (TopK with a
    computed k), concatenates them and runs NonMaxSuppression inside an If
    (data-dependent numbers of boxes throughout). BatchNorm is calibrated
    through the backbone and heads so that scores differ (uncalibrated,
    every class scores 1/91 and the order is all ties)."""
    import torchvision
    model = torchvision.models.detection.ssdlite320_mobilenet_v3_large(
        weights=None, weights_backbone=None)

    class Features(nn.Module):
        def __init__(self, m):
            super().__init__()
            self.backbone, self.head = m.backbone, m.head

        def forward(self, x):
            return self.head(list(self.backbone(x).values()))

    calibrate_batchnorm(Features(model), lambda: torch.rand(4, 3, 320, 320))
    # One image [3, H, W] (a list of images; batch unused).
    return (model.eval(), ([torch.rand(3, 240, 280)],), ["images"],
            ["boxes", "scores", "labels"])


def lstm(batch):
    return RecurrentNet(nn.LSTM).eval(), (torch.rand(batch, 16, 32),), ["x"], ["logits"]


def gru(batch):
    return RecurrentNet(nn.GRU).eval(), (torch.rand(batch, 16, 32),), ["x"], ["logits"]


def mlp(batch):
    return Mlp().eval(), (torch.rand(batch, 784),), ["x"], ["logits"]


MODELS = {
    "resnet18": torchvision_model("resnet18"),
    "resnet50": torchvision_model("resnet50"),
    "mobilenet_v2": torchvision_model("mobilenet_v2"),
    "efficientnet_b0": torchvision_model("efficientnet_b0"),
    "bert": bert,
    "gpt": gpt,
    "lstm": lstm,
    "transformer": transformer,
    "scripted": scripted,
    "ssdlite": ssdlite,
}

# The broader benchmark's models (benchmarks/run.py --broad): torchvision
# architectures beyond the four above, a GRU and an MLP.
BROAD = ["mobilenet_v3_large", "regnet_y_400mf", "squeezenet1_1", "shufflenet_v2_x1_0",
         "densenet121", "googlenet", "mnasnet1_0", "convnext_tiny"]
for _arch in BROAD:
    MODELS[_arch] = torchvision_model(_arch)
MODELS["gru"] = gru
MODELS["mlp"] = mlp

# Exported only when named with --only (a detector: one image, no batch;
# the broader benchmark's models, which the tests do not all need).
ONLY_BY_NAME = {"ssdlite", "gru", "mlp", *BROAD}

# --symbolic: each model's symbolic dimensions, by input and output name.
SYMBOLIC_AXES = {
    "bert": {"input_ids": {0: "batch", 1: "seq"}, "attention_mask": {0: "batch", 1: "seq"},
             "last_hidden_state": {0: "batch", 1: "seq"}, "logits": {0: "batch"}},
    "gpt": {"input_ids": {1: "seq"}, "logits": {1: "seq"}},
    "scripted": {"x": {0: "batch"}, "y": {0: "batch"}},
    "ssdlite": {"images": {1: "height", 2: "width"}},
}
IMAGE_AXES = {"input": {0: "batch", 2: "height", 3: "width"}, "logits": {0: "batch"}}


def export(name, path, batch=1, dynamic=False, symbolic=False):
    torch.manual_seed(SEED)
    # --symbolic: the model's own symbolic dimensions (an image's batch,
    # height and width; a text model's batch and sequence). A symbolic batch
    # is traced at 2, so that nothing specializes on a batch of 1.
    sym_axes = SYMBOLIC_AXES.get(name, IMAGE_AXES) if symbolic else None
    sym_batch = sym_axes and any(0 in a for a in sym_axes.values())
    model, args, input_names, output_names = MODELS[name](
        2 if dynamic or sym_batch else batch)
    # --dynamic-batch: every input and output's dimension 0 is the symbolic 'N'.
    # (Scalar inputs, scripted's trip count, have no batch.)
    axes = ({n: {0: "N"} for n, a in zip(input_names + output_names,
                                          list(args) + [None] * len(output_names))
             if a is None or a.dim() > 0} if dynamic else sym_axes)
    model.eval()
    errors = []
    for opset in OPSETS:
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".onnx.tmp",
                                   dir=os.path.dirname(path))
        os.close(fd)
        try:
            grad = getattr(model, "trace_with_grad", False)
            with torch.enable_grad() if grad else torch.no_grad():
                torch.onnx.export(model, args, tmp, opset_version=opset,
                                  do_constant_folding=True, input_names=input_names,
                                  output_names=output_names, dynamic_axes=axes)
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)  # mkstemp made it 0600
            os.replace(tmp, path)
            return opset, errors
        except Exception as e:  # this opset is not exportable: try the next one
            errors.append(f"opset {opset}: {type(e).__name__}: {str(e).splitlines()[0]}")
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    raise RuntimeError(f"{name}: no opset in {OPSETS} exports:\n  " + "\n  ".join(errors))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("outdir", nargs="?", help="where NAME.onnx files go")
    ap.add_argument("--only", nargs="+", choices=sorted(MODELS), metavar="NAME",
                    help=f"export only these ({', '.join(MODELS)})")
    ap.add_argument("--batch", type=int, default=1, help="static batch size (default 1)")
    ap.add_argument("--dynamic-batch", action="store_true",
                    help="a symbolic batch 'N' (dimension 0 of every input and output): "
                         "writes OUTDIR/NAME_dyn.onnx")
    ap.add_argument("--symbolic", action="store_true",
                    help="symbolic dimensions: images' batch, height and width, bert's "
                         "batch and sequence, gpt's sequence, scripted's batch "
                         "('batch', 'height', 'width'): writes OUTDIR/NAME_sym.onnx")
    ap.add_argument("--force", action="store_true", help="re-export existing files")
    ap.add_argument("--list", action="store_true", help="print the model names and exit")
    args = ap.parse_args()
    if args.list:
        print("\n".join(MODELS))
        return 0
    if not args.outdir:
        ap.error("OUTDIR is required")
    os.makedirs(args.outdir, exist_ok=True)
    # The exporter's notes on missing prim::Constant shape inference and LSTM batch sizes
    # do not apply to these static-shape, batch-1 models.
    warnings.filterwarnings("ignore", category=UserWarning, module=r"torch\.onnx")
    torch.set_num_threads(min(2, os.cpu_count() or 1))
    for name in args.only or [m for m in MODELS if m not in ONLY_BY_NAME]:
        suffix = ("_dyn" if args.dynamic_batch else "_sym" if args.symbolic
                  else ("" if args.batch == 1 else f"_b{args.batch}"))
        path = os.path.join(args.outdir, f"{name}{suffix}.onnx")
        if (os.path.exists(path) and not args.force
                and os.path.getmtime(path) >= os.path.getmtime(__file__)):
            print(f"{name}: {path} exists, skipped")
            continue
        opset, skipped = export(name, path, args.batch, args.dynamic_batch,
                                args.symbolic)
        for line in skipped:
            print(f"{name}: {line}")
        print(f"{name}: wrote {path} (opset {opset}, {os.path.getsize(path) / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
