from quark.torch.quantization.config.config import AWQConfig, GPTQConfig

awq = AWQConfig(scaling_layers=[], model_decoder_layers="model.layers")
gptq = GPTQConfig(block_size=128, damp_percent=0.01, desc_act=True, static_groups=True)
